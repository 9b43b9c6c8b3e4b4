import { terminalSafeJson } from './terminal-text.ts';

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
      process.stdout.write(json ? `${terminalSafeJson(JSON.stringify(value, null, 2))}\n` : `${text(value)}\n`);
    },
  };
}

/** Exit status of a usage error (a bad or missing argument), as POSIX utilities use it. */
export const USAGE_EXIT = 2;

/**
 * A failure the user can act on: printed as one line (and, with --json, as
 * { error: { code, message } } on stdout); exit code 1, or 2 for usage.
 */
export class CliError extends Error {
  override name = 'CliError';
  readonly code: string;
  constructor(
    message: string,
    readonly exitCode = 1,
    code?: string,
  ) {
    super(message);
    this.code = code ?? (exitCode === USAGE_EXIT ? 'usage_error' : 'failed');
  }
}

/** The one JSON document a failed command prints on stdout with --json. */
export function errorDocument(code: string, message: string): string {
  return `${terminalSafeJson(JSON.stringify({ error: { code, message } }, null, 2))}\n`;
}
