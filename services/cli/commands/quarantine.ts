import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { closeDatabase, openDatabase } from '../../control/db.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { countQuarantine, listQuarantine } from '../../control/quarantine.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

export function quarantineCommand(program: Command): void {
  const quarantine = program.command('quarantine').description('rows an ingest refused, with every reason');
  quarantine
    .command('list')
    .description('list quarantined rows: file, line, raw row and reasons')
    .option('--file <path-or-sha256>', 'only rows of this file (its path or content hash)')
    .option('--run <jobId>', 'only rows of this ingest job')
    .option('--limit <n>', 'rows to show', '100')
    .option('--offset <n>', 'rows to skip', '0')
    .action((opts: { file?: string; run?: string; limit: string; offset: string }, command: Command) => {
      const limit = Number(opts.limit);
      const offset = Number(opts.offset);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError('--limit must be an integer 1-10000', 2);
      if (!Number.isInteger(offset) || offset < 0) throw new CliError('--offset must be an integer >= 0', 2);
      const db = openDatabase(loadConfig().DATABASE_PATH, { registry: loadRegistry() });
      try {
        const filters = { file: opts.file, runId: opts.run };
        const rows = listQuarantine(db, { ...filters, limit, offset });
        const total = countQuarantine(db, filters);
        createOutput(wantsJson(command)).result({ total, limit, offset, rows }, (r) =>
          r.rows.length === 0
            ? 'no quarantined rows'
            : [
                ...r.rows.map(
                  (q) => `${q.filePath}:${q.line}\n  reasons: ${q.reasons.join('; ')}\n  raw: ${q.raw.replace(/\n/g, '\\n').slice(0, 300)}`,
                ),
                `${r.offset + r.rows.length} of ${r.total} shown`,
              ].join('\n'),
        );
      } finally {
        closeDatabase(db);
      }
    });
}
