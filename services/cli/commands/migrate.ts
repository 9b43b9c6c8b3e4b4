import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { describe } from '../../control/db/db.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { listAppliedMigrations } from '../../control/db/migrate.ts';
import { wantsJson } from '../json-flag.ts';
import { createOutput } from '../output.ts';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending control-plane migrations (SQLite or PostgreSQL) and seed the 67 counties (safe to run any time)')
    .action(async (_opts, command: Command) => {
      const config = loadConfig();
      const sql = await openControlPlane(config, { registry: loadRegistry(), indexPrefix: config.INDEX_PREFIX });
      try {
        const applied = await listAppliedMigrations(sql);
        createOutput(wantsJson(command)).result({ database: describe(config), migrations: applied }, (r) =>
          [`database ${r.database}`, ...r.migrations.map((m) => `  ${m.version} ${m.name}  applied ${m.appliedAt}`)].join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
}
