import type { Command } from 'commander';
import { accountsCommand } from './accounts.ts';
import { billingCommand } from './billing.ts';
import { clientsCommand } from './clients.ts';
import { controlPlaneCommand } from './control-plane.ts';
import { countiesCommand } from './counties.ts';
import { fixturesCommand } from './fixtures.ts';
import { holdersCommand } from './holders.ts';
import { ingestCommand } from './ingest.ts';
import { jobsCommand } from './jobs.ts';
import { keysCommand } from './keys.ts';
import { migrateCommand } from './migrate.ts';
import { packsCommand } from './packs.ts';
import { plansCommand } from './plans.ts';
import { portfoliosCommand } from './portfolios.ts';
import { quarantineCommand } from './quarantine.ts';
import { reindexCommand } from './reindex.ts';
import { serveCommand } from './serve.ts';
import { startCommand } from './start.ts';
import { statusCommand } from './status.ts';
import { usageCommand } from './usage.ts';
import { webhooksCommand } from './webhooks.ts';
import { workerCommand } from './worker.ts';

/** Each command lives in its own file and registers itself here. */
export function registerCommands(program: Command): void {
  startCommand(program);
  serveCommand(program);
  workerCommand(program);
  migrateCommand(program);
  controlPlaneCommand(program);
  ingestCommand(program);
  fixturesCommand(program);
  holdersCommand(program);
  quarantineCommand(program);
  reindexCommand(program);
  statusCommand(program);
  countiesCommand(program);
  jobsCommand(program);
  clientsCommand(program);
  accountsCommand(program);
  keysCommand(program);
  packsCommand(program);
  plansCommand(program);
  usageCommand(program);
  billingCommand(program);
  webhooksCommand(program);
  portfoliosCommand(program);
}
