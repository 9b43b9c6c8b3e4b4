import { Command, CommanderError } from 'commander';
import { ConfigError, wantsErrorStacks } from '../config.ts';
import { CliError } from './output.ts';
import { registerCommands } from './commands/index.ts';

const program = new Command('taxcert')
  .description('Florida tax certificate data service: API, indexer worker and operator commands')
  .option('--json', 'print exactly one JSON document on stdout (logs go to stderr)')
  .showHelpAfterError()
  .exitOverride();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = exitCodeFor(err);
}

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode; // commander already printed it
  if (err instanceof ConfigError || err instanceof CliError) {
    process.stderr.write(`taxcert: ${err.message}\n`);
    return err instanceof CliError ? err.exitCode : 1;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`taxcert: ${message.split('\n')[0]}\n`);
  if (wantsErrorStacks() && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  return 1;
}
