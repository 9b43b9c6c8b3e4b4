/**
 * Command output: with --json stdout carries exactly one JSON document; otherwise
 * the human text. Either way logs and progress stay on stderr.
 */
export interface Output {
  json: boolean;
  /** Prints the result once, as JSON or through the text renderer. */
  result<T>(value: T, text: (value: T) => string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, text) {
      process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text(value)}\n`);
    },
  };
}

/** A failure the user can act on: printed as one line, exit code 1 (2 for usage). */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
