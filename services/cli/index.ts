import { Command, CommanderError } from 'commander';
import { ConfigError, fillEnvironment, wantsErrorStacks } from '../config.ts';
import { DependencyUnavailableError } from '../process/runtime.ts';
import { ManifestError } from '../domain/manifest.ts';
import { registerCommands } from './commands/index.ts';
import { stackVariables, usesLocalStack } from './local-stack.ts';
import { CliError, errorDocument, USAGE_EXIT } from './output.ts';
import { printable } from './terminal-text.ts';

const program = new Command('taxcert')
  .description('Florida tax certificate data service: API, indexer worker and operator commands')
  .option('--json', 'print exactly one JSON document on stdout (logs go to stderr)')
  .showHelpAfterError()
  .exitOverride();

await registerCommands(program, process.argv.slice(2));

// The operator commands reach the stack `npm start` recorded, before any of them reads its
// config; the process's own environment is what config.ts parses, so the recorded variables go
// there, each only where the environment leaves it unset (local-stack.ts says why).
program.hook('preAction', async (_program, action) => {
  let command = action;
  while (command.parent && command.parent !== program) command = command.parent;
  if (usesLocalStack(command.name())) await fillEnvironment(stackVariables);
});

// --json is known before parsing so that a failure in parsing itself still prints its JSON document.
const json = process.argv.slice(2).includes('--json');

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const failure = describeFailure(err);
  if (failure.exitCode !== 0) {
    if (!failure.printed) process.stderr.write(`taxcert: ${printable(failure.message)}\n`);
    if (json) process.stdout.write(errorDocument(failure.code, failure.message));
    if (wantsErrorStacks() && err instanceof Error && failure.code === 'internal_error') process.stderr.write(`${err.stack}\n`);
  }
  process.exitCode = failure.exitCode;
}

interface Failure {
  exitCode: number;
  code: string;
  message: string;
  /** commander has already written its message (and the help) to stderr. */
  printed: boolean;
}

function describeFailure(err: unknown): Failure {
  if (err instanceof CommanderError) {
    // --help and --version end in a CommanderError with exit code 0; every other one is a usage error.
    if (err.exitCode === 0) return { exitCode: 0, code: 'ok', message: '', printed: true };
    return { exitCode: USAGE_EXIT, code: 'usage_error', message: err.message.replace(/^error: /, ''), printed: true };
  }
  if (err instanceof CliError) return { exitCode: err.exitCode, code: err.code, message: err.message, printed: false };
  if (err instanceof ConfigError) return { exitCode: 1, code: 'config_error', message: err.message, printed: false };
  if (err instanceof DependencyUnavailableError) return { exitCode: 1, code: err.code, message: err.message, printed: false };
  if (err instanceof ManifestError) return { exitCode: USAGE_EXIT, code: 'usage_error', message: err.message, printed: false };
  const message = err instanceof Error ? err.message : String(err);
  return { exitCode: 1, code: 'internal_error', message: message.split('\n')[0] ?? '', printed: false };
}
