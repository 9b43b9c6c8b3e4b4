import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { CopyError } from '../../control/db/copy.ts';
import { describe } from '../../control/db/db.ts';
import { copyControlPlane, openControlPlane } from '../../control/control-plane.ts';
import { openPostgres } from '../../control/db/postgres.ts';
import { SqliteSql } from '../../control/db/sqlite.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput, USAGE_EXIT } from '../output.ts';

export function controlPlaneCommand(program: Command): void {
  const plane = scriptFriendly(program.command('control-plane')).description(
    'the control-plane database: counties, keys, credits, accounts, events',
  );
  plane
    .command('copy')
    .description('copy this SQLite control plane into an empty PostgreSQL database and verify it (stop the API and worker first)')
    .requiredOption('--to <url>', 'postgres://user@host:port/database (an empty database)')
    .action(async (opts: { to: string }, command: Command) => {
      if (!/^postgres(ql)?:\/\//.test(opts.to)) throw new CliError('--to: must be a postgres:// or postgresql:// URL', USAGE_EXIT);
      const config = loadConfig();
      if (config.DATABASE_URL)
        throw new CliError(
          'DATABASE_URL is set: the copy reads the SQLite file at DATABASE_PATH; unset DATABASE_URL to name the source',
          USAGE_EXIT,
        );
      const output = createOutput(wantsJson(command));
      const from = await openControlPlane(config, { registry: loadRegistry(), indexPrefix: config.INDEX_PREFIX });
      const to = openPostgres(opts.to, { max: 2 });
      try {
        if (!(from instanceof SqliteSql)) throw new CliError('the source control plane is not SQLite');
        const report = await copyControlPlane(from, to, (t) => {
          if (!output.json) process.stderr.write(`copied ${t.table}: ${t.rows} rows\n`);
        });
        output.result({ from: config.DATABASE_PATH, to: describe({ DATABASE_URL: opts.to, DATABASE_PATH: '' }), ...report }, (r) =>
          [
            `copied ${r.tables.reduce((n, t) => n + t.rows, 0)} rows in ${r.tables.length} tables from ${r.from} to ${r.to}`,
            `verified: row counts of every table, and the balances of ${r.clientsVerified} clients against both ledgers`,
          ].join('\n'),
        );
      } catch (err) {
        if (err instanceof CopyError) throw new CliError(err.message, 1, err.code);
        throw err;
      } finally {
        await to.close();
        await from.close();
      }
    });
}
