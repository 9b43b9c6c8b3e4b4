import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { clearQuarantine, countQuarantine, listQuarantine, type QuarantineFilters } from '../../control/ingest/quarantine.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';
import { printable } from '../terminal-text.ts';

/**
 * --file as typed: a content hash as it is; a path made absolute (runs store absolute paths, so a
 * relative one matched nothing) and, when the file is there, its content hash too, so rows of
 * the same file loaded from another path are found.
 */
function fileFilter(file: string | undefined): Pick<QuarantineFilters, 'file' | 'fileSha256'> {
  if (file === undefined) return {};
  if (/^[0-9a-f]{64}$/.test(file)) return { file };
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) return { file: path };
  return { file: path, fileSha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
}

export function quarantineCommand(program: Command): void {
  const quarantine = program.command('quarantine').description('rows an ingest refused, with every reason');
  quarantine
    .command('list')
    .description('list quarantined rows: run, file, line, raw row and reasons')
    .option('--file <path-or-sha256>', 'only rows of this file (its path or content hash)')
    .option('--run <jobId>', 'only rows of this ingest job')
    .option('--limit <n>', 'rows to show', '100')
    .option('--offset <n>', 'rows to skip', '0')
    .action(async (opts: { file?: string; run?: string; limit: string; offset: string }, command: Command) => {
      const limit = Number(opts.limit);
      const offset = Number(opts.offset);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError('--limit must be an integer 1-10000', 2);
      if (!Number.isInteger(offset) || offset < 0) throw new CliError('--offset must be an integer >= 0', 2);
      const config = loadConfig();
      const sql = await openControlPlane(config, { registry: loadRegistry(), indexPrefix: config.INDEX_PREFIX });
      try {
        const filters = { ...fileFilter(opts.file), runId: opts.run };
        const rows = await listQuarantine(sql, { ...filters, limit, offset });
        const total = await countQuarantine(sql, filters);
        createOutput(wantsJson(command)).result({ total, limit, offset, rows }, (r) =>
          r.rows.length === 0
            ? 'no quarantined rows'
            : [
                ...r.rows.map(
                  (q) =>
                    // Rows come from county files: control characters are shown escaped, never sent to the terminal.
                    `${printable(q.filePath)}:${q.line}  (run ${printable(q.runId)})\n  reasons: ${printable(q.reasons.join('; '))}\n  raw: ${printable(q.raw.slice(0, 300))}`,
                ),
                `${r.offset + r.rows.length} of ${r.total} shown`,
              ].join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
  quarantine
    .command('clear')
    .description('delete quarantined rows on purpose: those of a run, of a file, or --all')
    .option('--file <path-or-sha256>', 'rows of this file (its path or content hash)')
    .option('--run <jobId>', 'rows of this ingest job')
    .option('--all', 'every quarantined row')
    .action(async (opts: { file?: string; run?: string; all?: boolean }, command: Command) => {
      const scoped = opts.file !== undefined || opts.run !== undefined;
      if (scoped === (opts.all === true)) throw new CliError('give --run and/or --file, or --all', 2);
      const config = loadConfig();
      const sql = await openControlPlane(config, { registry: loadRegistry(), indexPrefix: config.INDEX_PREFIX });
      try {
        const removed = await clearQuarantine(sql, opts.all ? {} : { ...fileFilter(opts.file), runId: opts.run });
        createOutput(wantsJson(command)).result({ removed }, (r) => `removed ${r.removed} quarantined row(s)`);
      } finally {
        await sql.close();
      }
    });
}
