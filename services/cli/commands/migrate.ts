import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { closeDatabase, openDatabase } from '../../control/db.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { listAppliedMigrations } from '../../control/migrate.ts';
import { wantsJson } from '../json-flag.ts';
import { createOutput } from '../output.ts';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending SQLite migrations and seed the 67 counties (safe to run any time)')
    .action((_opts, command: Command) => {
      const config = loadConfig();
      const db = openDatabase(config.DATABASE_PATH, { registry: loadRegistry(), indexPrefix: config.INDEX_PREFIX });
      try {
        const applied = listAppliedMigrations(db);
        createOutput(wantsJson(command)).result({ database: config.DATABASE_PATH, migrations: applied }, (r) =>
          [`database ${r.database}`, ...r.migrations.map((m) => `  ${m.version} ${m.name}  applied ${m.appliedAt}`)].join(
            '\n',
          ),
        );
      } finally {
        closeDatabase(db);
      }
    });
}
