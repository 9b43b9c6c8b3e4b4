import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Each command lives in its own file; this table names it and loads it. A `taxcert` process
 * loads only the file of the command it runs: importing every command (the API, the engine
 * client, DuckDB, the worker) cost about 3 s of CPU at each start, where one operator command's
 * file costs 0.7-1.8 s. The order is the help's.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  start: async () => (await import('./start.ts')).startCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
  worker: async () => (await import('./worker.ts')).workerCommand,
  migrate: async () => (await import('./migrate.ts')).migrateCommand,
  'control-plane': async () => (await import('./control-plane.ts')).controlPlaneCommand,
  ingest: async () => (await import('./ingest.ts')).ingestCommand,
  fixtures: async () => (await import('./fixtures.ts')).fixturesCommand,
  holders: async () => (await import('./holders.ts')).holdersCommand,
  quarantine: async () => (await import('./quarantine.ts')).quarantineCommand,
  reindex: async () => (await import('./reindex.ts')).reindexCommand,
  status: async () => (await import('./status.ts')).statusCommand,
  counties: async () => (await import('./counties.ts')).countiesCommand,
  jobs: async () => (await import('./jobs.ts')).jobsCommand,
  clients: async () => (await import('./clients.ts')).clientsCommand,
  accounts: async () => (await import('./accounts.ts')).accountsCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
  packs: async () => (await import('./packs.ts')).packsCommand,
  plans: async () => (await import('./plans.ts')).plansCommand,
  usage: async () => (await import('./usage.ts')).usageCommand,
  billing: async () => (await import('./billing.ts')).billingCommand,
  webhooks: async () => (await import('./webhooks.ts')).webhooksCommand,
  portfolios: async () => (await import('./portfolios.ts')).portfoliosCommand,
  bulk: async () => (await import('./bulk.ts')).bulkCommand,
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

/**
 * The command the arguments name: the first argument that is not an option (the program's only
 * option, --json, takes no value). Undefined for `--help`, `help`, nothing or an unknown name.
 */
export function namedCommand(args: readonly string[]): string | undefined {
  const first = args.find((arg) => !arg.startsWith('-'));
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
}

/**
 * Registers the command `args` names, or every command when they name none, so the program's
 * help lists them all and commander answers an unknown name with its suggestion.
 */
export async function registerCommands(program: Command, args: readonly string[]): Promise<void> {
  const name = namedCommand(args);
  const loads = name ? [COMMANDS[name]!] : Object.values(COMMANDS);
  for (const register of await Promise.all(loads.map((load) => load()))) register(program);
}
