import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, namedCommand, registerCommands } from '../../../../../services/cli/commands/index.ts';

describe('the command table', () => {
  it('registers, for each name, the command of that name and only it', async () => {
    for (const name of COMMAND_NAMES) {
      const program = new Command('taxcert');
      await registerCommands(program, [name]);
      expect(program.commands.map((c) => c.name())).toEqual([name]);
    }
  });

  it('registers every command, in the table order, when the arguments name none', async () => {
    for (const args of [[], ['--help'], ['help', 'clients'], ['--json'], ['no-such-command']]) {
      const program = new Command('taxcert');
      await registerCommands(program, args);
      expect(program.commands.map((c) => c.name())).toEqual(COMMAND_NAMES);
    }
  });

  it('finds the command after the program option, not in the command options', () => {
    expect(namedCommand(['--json', 'keys', 'create', '--client', 'cli_1'])).toBe('keys');
    expect(namedCommand(['ingest', '--county', 'lee'])).toBe('ingest');
    expect(namedCommand(['help', 'keys'])).toBeUndefined();
    expect(namedCommand(['constructor'])).toBeUndefined();
    expect(namedCommand([])).toBeUndefined();
  });
});
