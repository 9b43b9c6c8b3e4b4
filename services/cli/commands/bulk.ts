import type { Command } from 'commander';
import { buildCertificateSnapshots } from '../../bulk/build-certificates.ts';
import { buildCertificateDeltas } from '../../bulk/build-deltas.ts';
import { buildDirectorySnapshots, buildSaleSnapshots } from '../../bulk/build-directory.ts';
import { buildHoldersSnapshot } from '../../api/routes/holders/bulk-snapshot.ts';
import { buildLandsSnapshots } from '../../api/routes/lands-available/bulk-snapshots.ts';
import type { BulkFile } from '../../bulk/entry.ts';
import { folderStorage } from '../../bulk/folder-storage.ts';
import { deltaCutoff, pruneBulkFiles, snapshotScope } from '../../bulk/prune.ts';
import { type SnapshotStatus, snapshotStatus } from '../../bulk/status.ts';
import { loadConfig } from '../../config.ts';
import { floridaToday } from '../../domain/florida-today.ts';
import { openRuntime } from '../../process/runtime.ts';
import { resolveCountyArg } from '../county-arg.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput, USAGE_EXIT } from '../output.ts';

export function bulkCommand(program: Command): void {
  const bulk = program
    .command('bulk')
    .description('bulk files: snapshots and daily deltas in Parquet, NDJSON and CSV (docs/bulk-files.md)');
  bulk
    .command('build')
    .description(
      'rebuild the certificates, certificate-sales and lands-available snapshots of every county and tax year (or of the ones named), and the holders, counties and sources files',
    )
    .option('--county <county>', 'only this county (slug or name)')
    .option('--tax-year <yyyy>', 'only this tax year')
    .action(async (opts: { county?: string; taxYear?: string }, command: Command) => {
      const config = loadConfig();
      const runtime = await openRuntime(config, { name: 'bulk' });
      try {
        const county = opts.county === undefined ? undefined : resolveCountyArg(runtime.registry, opts.county).slug;
        if (opts.taxYear !== undefined && !/^\d{4}$/.test(opts.taxYear))
          throw new CliError(`--tax-year: "${opts.taxYear}" is not a year`, USAGE_EXIT);
        const taxYear = opts.taxYear === undefined ? undefined : Number(opts.taxYear);
        const output = createOutput(wantsJson(command));
        const timings = { certificates_seconds: 0, ndjson_and_csv_seconds: 0, parquet_seconds: 0, all_seconds: 0 };
        const started = performance.now();
        const deps = {
          ...runtime,
          storage: folderStorage(config.BULK_DIR),
          // Summed over the file sets built side by side: where the certificates' time went, per format.
          onTimings: (t: { textMs: number; parquetMs: number }) => {
            timings.ndjson_and_csv_seconds += t.textMs / 1000;
            timings.parquet_seconds += t.parquetMs / 1000;
          },
        };
        const files = await buildCertificateSnapshots(deps, { county, taxYear }, (built) => {
          if (!output.json) process.stderr.write(`${built[0]?.county} ${built[0]?.tax_year}: ${built[0]?.rows} rows\n`);
        });
        timings.certificates_seconds = (performance.now() - started) / 1000;
        files.push(...(await buildSaleSnapshots(deps, { county, taxYear })));
        files.push(...(await buildLandsSnapshots(deps, { county, taxYear })));
        // The single files belong to no county or tax year: a build narrowed to one leaves them be.
        let removed: string[] = [];
        if (county === undefined && taxYear === undefined) {
          const holders = await buildHoldersSnapshot(deps);
          files.push(...holders, ...(await buildDirectorySnapshots(deps)));
          // A full build has seen every scope that holds rows: the snapshots of any other are superseded.
          removed = await pruneBulkFiles(deps.storage, {
            snapshotScopes: {
              datasets: ['certificates', 'certificate-sales', 'lands-available'],
              scopes: new Set(files.filter((f) => f.county !== null).map((f) => snapshotScope(f.dataset, f.county!, f.tax_year ?? 0))),
            },
            emptyDatasets: holders.length === 0 ? ['holders'] : [],
          });
        }
        timings.all_seconds = (performance.now() - started) / 1000;
        for (const key of Object.keys(timings) as (keyof typeof timings)[]) timings[key] = Math.round(timings[key] * 10) / 10;
        output.result({ files, removed, timings }, (r) =>
          [
            r.files.length === 0 ? 'no certificates to build files of' : r.files.map(fileLine).join('\n'),
            ...r.removed.map(removedLine),
            `built in ${r.timings.all_seconds} s (certificates ${r.timings.certificates_seconds} s)`,
          ].join('\n'),
        );
      } finally {
        await runtime.close();
      }
    });
  deltasCommand(bulk);
  bulk
    .command('status')
    .description('per county and tax year: the newest snapshot, its rows, its age and whether it lags the index')
    .action(async (_opts, command: Command) => {
      const config = loadConfig();
      const runtime = await openRuntime(config, { name: 'bulk' });
      try {
        const snapshots = await snapshotStatus(folderStorage(config.BULK_DIR), runtime.sql);
        createOutput(wantsJson(command)).result({ dir: config.BULK_DIR, snapshots }, (r) =>
          r.snapshots.length === 0
            ? `no snapshots in ${r.dir} yet: taxcert bulk build writes them`
            : r.snapshots.map(statusLine).join('\n'),
        );
      } finally {
        await runtime.close();
      }
    });
}

function statusLine(s: SnapshotStatus): string {
  const age = s.age_seconds < 3600 ? `${Math.round(s.age_seconds / 60)} min` : `${(s.age_seconds / 3600).toFixed(1)} h`;
  return `${s.county} ${s.tax_year}: ${s.rows} rows, ${age} old, through ${s.through_event ?? 'no event'}${s.lags ? `, lags the index (newer: ${s.newer_event})` : ', current'}`;
}

/** `bulk deltas`: the daily delta files, of one Florida day or of every day the kept events cover. */
function deltasCommand(bulk: Command): void {
  bulk
    .command('deltas')
    .description('rebuild the certificates and certificate-sales deltas of a Florida day (default: every day the kept events cover)')
    .option('--day <yyyy-mm-dd>', 'only this Florida calendar day')
    .action(async (opts: { day?: string }, command: Command) => {
      if (opts.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(opts.day))
        throw new CliError(`--day: "${opts.day}" is not a date YYYY-MM-DD`, USAGE_EXIT);
      const config = loadConfig();
      const runtime = await openRuntime(config, { name: 'bulk' });
      try {
        const storage = folderStorage(config.BULK_DIR);
        const files = await buildCertificateDeltas({ ...runtime, storage }, opts.day === undefined ? undefined : [opts.day]);
        // Deltas live as long as the events they are made of.
        const removed = await pruneBulkFiles(storage, { deltasFrom: deltaCutoff(floridaToday(new Date()), config.EVENTS_RETENTION_DAYS) });
        createOutput(wantsJson(command)).result({ files, removed }, (r) =>
          [
            r.files.length === 0 ? 'no certificate events to build deltas of' : r.files.map(fileLine).join('\n'),
            ...r.removed.map(removedLine),
          ].join('\n'),
        );
      } finally {
        await runtime.close();
      }
    });
}

function removedLine(name: string): string {
  return `${name}  removed (past its retention)`;
}

function fileLine(f: BulkFile): string {
  return `${f.name}  ${f.rows} rows  ${f.bytes} bytes  sha256 ${f.sha256}  through ${f.through_event ?? 'no event'}`;
}
