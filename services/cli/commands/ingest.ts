import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { IngestJobData } from '../../../indexer/queue.ts';
import { FILE_DATASETS } from '../../domain/datasets.ts';
import { loadRegistry, type Registry } from '../../domain/registry.ts';
import { loadConfig } from '../../config.ts';
import { upsertSource } from '../../control/ingest/sources.ts';
import { openRuntime, requireRedis } from '../../process/runtime.ts';
import { resolveCountyArg } from '../county-arg.ts';
import { enqueueFiles, type FileOutcome } from '../../process/ingest-runner.ts';
import { manifestJobs, manifestParcelJobs } from '../../process/manifest-jobs.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

interface IngestOptions {
  vendor?: string;
  county?: string;
  taxYear?: string;
  manifest?: string;
  dataset: string;
  wait?: boolean;
}

export function ingestCommand(program: Command): void {
  program
    .command('ingest')
    .description('queue portal export files for indexing (one job per file)')
    .argument('[files...]', 'export files of one county and tax year')
    .option(
      '--vendor <code>',
      'sale platform code, county_local or tax_collector (see services/domain/data/platforms.json); parcels: manual',
    )
    .option('--county <slug>', 'county slug, e.g. miami-dade')
    .option('--tax-year <yyyy>', 'tax year the certificates were issued for; parcels: the current year')
    .option(
      '--manifest <path>',
      'load every file listed in a generated manifest.json (and its sources); with --dataset parcels, its parcel files',
    )
    .option('--dataset <name>', `dataset the files hold: ${FILE_DATASETS.join(', ')}`, 'certificates')
    .option('--wait', 'wait until every file is searchable (or failed) and print the results')
    .action(async (files: string[], opts: IngestOptions, command: Command) => {
      const config = loadConfig();
      const registry = loadRegistry();
      const { jobs, sources, expectedRows } = plan(files, opts, registry);
      await requireRedis(config);
      const runtime = await openRuntime(config, { name: 'ingest', registry });
      try {
        for (const source of sources) await upsertSource(runtime.sql, registry, source);
        const stopExplaining = opts.wait ? explainInterrupt(jobs.length) : () => {};
        const outcomes = await enqueueFiles(runtime, jobs, {
          wait: opts.wait === true,
          expectedRows,
          onQueued: () => process.stderr.write(`taxcert: waiting for ${jobs.length} file(s); Ctrl-C stops waiting, not the jobs\n`),
        }).finally(stopExplaining);
        const summary = summarize(outcomes);
        createOutput(wantsJson(command)).result(summary, render);
        if (summary.failed > 0) process.exitCode = 1;
      } finally {
        await runtime.close();
      }
    });
}

/**
 * Ctrl-C during --wait only stops the waiting: the jobs are in the queue and a worker finishes
 * them (a file this process was loading is retried by the next worker). Say so, rather than let
 * the operator think the load was cancelled.
 */
function explainInterrupt(files: number): () => void {
  const onInterrupt = () => {
    process.stderr.write(
      `\ntaxcert: stopped waiting; the ${files} queued job(s) are not cancelled: they go on in the worker ` +
        '(taxcert worker or npm start; a file this process was loading is retried there). Follow them with taxcert status.\n',
    );
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  return () => process.off('SIGINT', onInterrupt);
}

function plan(files: string[], opts: IngestOptions, registry: Registry) {
  if (!(FILE_DATASETS as readonly string[]).includes(opts.dataset))
    throw new CliError(`--dataset must be one of ${FILE_DATASETS.join(', ')}; got "${opts.dataset}"`, 2);
  const dataset = opts.dataset as IngestJobData['dataset'];
  if (opts.manifest) {
    if (files.length > 0 || opts.vendor || opts.county || opts.taxYear)
      throw new CliError('--manifest takes no files, --vendor, --county or --tax-year (the manifest names them)', 2);
    // A manifest's parcel files are their own list: --dataset parcels loads those, not its certificate files.
    if (dataset === 'parcels') {
      const { jobs, rows } = manifestParcelJobs(opts.manifest);
      return {
        jobs: jobs.map((j) => job(registry, dataset, j.file, j.vendor, j.county, String(j.taxYear))),
        sources: [],
        expectedRows: rows,
      };
    }
    const { jobs, sources, rows } = manifestJobs(opts.manifest, dataset);
    return { jobs: jobs.map((j) => job(registry, dataset, j.file, j.vendor, j.county, String(j.taxYear))), sources, expectedRows: rows };
  }
  if (files.length === 0) throw new CliError('give one or more FILEs, or --manifest', 2);
  // A parcel file is the state's roll, not a sale channel's, and each row names its assessment
  // year: the job needs neither, so they default (the year only names the job).
  if (dataset === 'parcels')
    opts = { ...opts, vendor: opts.vendor ?? 'manual', taxYear: opts.taxYear ?? String(new Date().getUTCFullYear()) };
  const missing = (['--vendor', '--county', '--tax-year'] as const).filter(
    (flag) => !{ '--vendor': opts.vendor, '--county': opts.county, '--tax-year': opts.taxYear }[flag],
  );
  if (missing.length > 0)
    throw new CliError(
      `${missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`} ${missing.length === 1 ? 'is' : 'are'} required with FILEs`,
      2,
    );
  return {
    jobs: files.map((f) => job(registry, dataset, f, opts.vendor!, opts.county!, opts.taxYear!)),
    sources: [],
    expectedRows: undefined,
  };
}

function job(
  registry: Registry,
  dataset: IngestJobData['dataset'],
  file: string,
  vendor: string,
  county: string,
  taxYear: string,
): IngestJobData {
  const known = resolveCountyArg(registry, county);
  if (!registry.channelForVendor(vendor, known))
    throw new CliError(
      `--vendor: unknown vendor "${vendor}"; one of ${[...registry.platforms.map((p) => p.code), 'county_local', 'tax_collector', 'manual'].join(', ')}`,
      2,
    );
  const year = Number(taxYear);
  if (!/^\d{4}$/.test(taxYear) || year < 1990 || year > 2100)
    throw new CliError(`--tax-year: "${taxYear}" is not a year between 1990 and 2100`, 2);
  // A tax year's certificates are sold the following spring (197.432): a later year has had no sale.
  const thisYear = new Date().getUTCFullYear();
  if (year > thisYear)
    throw new CliError(`--tax-year: ${year} is later than the current year ${thisYear}; its certificates cannot have been sold yet`, 2);
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new CliError(`${file}: no such file`, 2);
  return { dataset, file: path, vendor, county: known.slug, taxYear: year };
}

function summarize(outcomes: FileOutcome[]) {
  const sum = (pick: (o: FileOutcome) => number | undefined) => outcomes.reduce((n, o) => n + (pick(o) ?? 0), 0);
  return {
    files: outcomes.length,
    succeeded: outcomes.filter((o) => o.status === 'succeeded').length,
    failed: outcomes.filter((o) => o.status === 'failed').length,
    queued: outcomes.filter((o) => o.status === 'queued').length,
    rowsRead: sum((o) => o.result?.rowsRead),
    indexed: sum((o) => o.result?.indexed),
    updated: sum((o) => o.result?.updated),
    changed: sum((o) => o.result?.changed),
    unchanged: sum((o) => o.result?.unchanged),
    /** Replaced documents of datasets that do not compare (neither changed nor unchanged is known). */
    replaced: sum((o) => (o.result && o.result.changed === undefined ? o.result.updated : 0)),
    quarantined: sum((o) => o.result?.quarantined),
    jobs: outcomes,
  };
}

function render(s: ReturnType<typeof summarize>): string {
  const lines = s.jobs.map((o) =>
    o.status === 'succeeded' && o.result
      ? `ok      ${o.county} ${o.taxYear} ${o.file}: read ${o.result.rowsRead}, ${loadCounts({ ...o.result, replaced: o.result.changed === undefined ? o.result.updated : 0 })}`
      : o.status === 'queued'
        ? `queued  ${o.county} ${o.taxYear} ${o.file} (job ${o.jobId})`
        : `FAILED  ${o.county} ${o.taxYear} ${o.file}: ${o.error}`,
  );
  if (s.queued === s.files) return lines.join('\n');
  lines.push(`${s.succeeded}/${s.files} files loaded; rows read ${s.rowsRead}, ${loadCounts(s)}${s.failed ? `; ${s.failed} failed` : ''}`);
  return lines.join('\n');
}

/**
 * What a load did to the index, in words an operator reads right: "indexed 0, updated 1494" for a
 * file with one changed row read as if 1,494 certificates had changed. New documents, those whose
 * public row changed, those that came back as they were; "replaced" where the dataset does not compare.
 */
function loadCounts(c: { indexed: number; changed?: number; unchanged?: number; replaced: number; quarantined: number }): string {
  const parts = [`new ${c.indexed}`];
  if (c.changed !== undefined && c.unchanged !== undefined && (c.changed > 0 || c.unchanged > 0 || c.replaced === 0))
    parts.push(`changed ${c.changed}`, `unchanged ${c.unchanged}`);
  if (c.replaced > 0) parts.push(`replaced ${c.replaced}`);
  parts.push(`quarantined ${c.quarantined}`);
  return parts.join(', ');
}
