import type { Command } from 'commander';

/** --json is a global option; subcommands read it from the root program. */
export function wantsJson(command: Command): boolean {
  let c: Command | null = command;
  while (c) {
    if (c.opts().json) return true;
    c = c.parent;
  }
  return false;
}
