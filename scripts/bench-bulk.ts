/**
 * Bulk files benchmark (a script, not a test): `taxcert bulk build` over a data set, every
 * certificates snapshot in all three formats and every other snapshot a full build writes (sales,
 * lands available, holders, counties, sources); rows per second per format, the build's peak RSS
 * (flat when the build streams), Parquet's size against gzipped NDJSON's, and the download
 * throughput of a large file through the real API on loopback.
 *
 *   npm run bench:bulk -- --certificates 1000000           generate + ingest through the real pipeline, then build
 *   npm run bench:bulk -- --reuse bench-bulk-1000000 --keep reuse a kept data set
 *   npm run bench:bulk -- --certificates 5000 --download-mb 20   a small run that proves the script works
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { buildApp } from '../services/api/app.ts';
import { fileDigest } from '../services/bulk/digest.ts';
import { type BulkFile, writeEntry } from '../services/bulk/entry.ts';
import { folderStorage } from '../services/bulk/folder-storage.ts';
import { BUILD_WIDTH } from '../services/bulk/side-by-side.ts';
import { manifestName } from '../services/bulk/names.ts';
import { loadConfig } from '../services/config.ts';
import { createKey } from '../services/control/billing/api-keys.ts';
import { createClient } from '../services/control/billing/clients.ts';
import { ensureLocalOpenSearch } from '../services/process/local-opensearch.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { generateAndIngest } from './lib/bench-set.ts';
import { dropScratch } from './lib/drop-scratch.ts';
import { percentile } from './lib/percentile.ts';
import { watchProcess } from './lib/proc-stats.ts';

const opts = new Command()
  .option('--certificates <n>', 'size of the generated data set', '1000000')
  .option('--reuse <prefix>', 'reuse the data set kept under this INDEX_PREFIX (bench-out/<prefix>)')
  .option('--keep', 'keep the data set (indices + bench-out/<prefix>) for --reuse')
  .option('--download-mb <n>', 'size of the file downloaded through the API', '100')
  .parse()
  .opts<{ certificates: string; reuse?: string; keep?: boolean; downloadMb: string }>();

const bin = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));
const n = Number(opts.certificates);
const prefix = opts.reuse ?? `bench-bulk-${n}`;
const dir = join(process.cwd(), 'bench-out', prefix);
const env = {
  ...process.env,
  INDEX_PREFIX: prefix,
  DATABASE_PATH: join(dir, 'taxcert.db'),
  BULK_DIR: join(dir, 'bulk'),
  LOG_LEVEL: 'warn',
  NODE_ENV: 'development',
  // The worker that loads the set must not rebuild files while the benchmark measures its own build.
  BULK_REBUILD_DEBOUNCE_MS: '86400000',
} as NodeJS.ProcessEnv;
const config = loadConfig(env);
const node = config.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(config) : null;
mkdirSync(dir, { recursive: true });
if (!opts.reuse) {
  const { worker } = await generateAndIngest({ bin, env, dir, certificates: n, seed: 4242, today: '2026-11-22' });
  worker.kill('SIGTERM');
}
const runtime = await openRuntime(config, { name: 'bench-bulk' });
try {
  rmSync(config.BULK_DIR, { recursive: true, force: true });
  const storage = folderStorage(config.BULK_DIR);
  // The build measured is the operator's: `taxcert bulk build` as its own processes (bin/taxcert.js
  // starts the builder as a child with the bulk heap flags), so its memory is the product's, not
  // this script's, which also holds the API for the download.
  const build = await operatorBuild();
  const files = build.files.filter((f) => f.dataset === 'certificates');
  const others = build.files.filter((f) => f.dataset !== 'certificates');
  const rows = files.filter((f) => f.format === 'parquet').reduce((sum, f) => sum + f.rows, 0);
  const bytes = (format: BulkFile['format']) => files.filter((f) => f.format === format).reduce((sum, f) => sum + f.bytes, 0);
  const mb = (b: number) => Math.round(b / 1e5) / 10;
  const downloads: number[] = [];
  for (let i = 0; i < 3; i++) downloads.push(await downloadThroughput(runtime, storage, Number(opts.downloadMb)));
  const t = build.timings;
  const figures = {
    certificates: rows,
    snapshots: files.length / 3,
    certificates_seconds: t.certificates_seconds,
    // The build writes BUILD_WIDTH file sets at once: the two steps' times are summed over them,
    // so their rates are those of one lane, and the whole build's is the one to compare with the target.
    rows_per_second: {
      all_three: Math.round(rows / t.certificates_seconds),
      lanes: BUILD_WIDTH,
      ndjson_and_csv_one_pass_per_lane: Math.round(rows / t.ndjson_and_csv_seconds),
      parquet_from_ndjson_per_lane: Math.round(rows / t.parquet_seconds),
    },
    other_snapshots: {
      seconds: Math.round((t.all_seconds - t.certificates_seconds) * 10) / 10,
      rows_by_dataset: Object.fromEntries(
        [...new Set(others.map((f) => f.dataset))].map((d) => [
          d,
          others.filter((f) => f.dataset === d && f.format === 'parquet').reduce((sum, f) => sum + f.rows, 0),
        ]),
      ),
      files: others.length,
    },
    all_snapshots_seconds: t.all_seconds,
    // From starting `taxcert` to its exit (node and tsx starting, the engine connection, the build).
    command_seconds: build.seconds,
    // The builder's own CPU (DuckDB's threads included, the engine's not): on a shared machine the
    // wall time waits for cores, this does not.
    cpu_seconds: build.cpu_seconds,
    // The launcher's and the builder's own peaks (VmHWM) added: the two together never held more.
    peak_rss_mb: build.peak_rss_mb,
    size_mb: { parquet: mb(bytes('parquet')), ndjson_gz: mb(bytes('ndjson')), csv_gz: mb(bytes('csv')) },
    parquet_to_ndjson_gz: Math.round((bytes('parquet') / bytes('ndjson')) * 100) / 100,
    download_mb_per_second: { runs: downloads, median: percentile(downloads, 50) },
  };
  console.log(JSON.stringify(figures, null, 2));
} finally {
  if (!opts.keep) await dropScratch(runtime, config, prefix, dir);
  await runtime.close();
  await node?.stop();
}

type BuildTimings = { certificates_seconds: number; ndjson_and_csv_seconds: number; parquet_seconds: number; all_seconds: number };

/** Runs `taxcert bulk build --json` over the set: its files and timings, wall seconds, CPU seconds and peak RSS. */
async function operatorBuild(): Promise<{
  seconds: number;
  cpu_seconds: number;
  peak_rss_mb: number;
  files: BulkFile[];
  timings: BuildTimings;
}> {
  const started = performance.now();
  const child = spawn(bin, ['bulk', 'build', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const watch = watchProcess(child.pid, 100, { withChildren: true });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const seen = watch.stop();
  if (code !== 0) throw new Error(`taxcert bulk build exited ${code}`);
  const result = JSON.parse(out) as { files: BulkFile[]; timings: BuildTimings };
  return {
    seconds: Math.round((performance.now() - started) / 100) / 10,
    cpu_seconds: Math.round(seen.cpuSeconds * 10) / 10,
    peak_rss_mb: seen.peakMb,
    files: result.files,
    timings: result.timings,
  };
}

/** Writes a file of `sizeMb` MB into the bulk folder and downloads it through the API on loopback, in MB/s. */
async function downloadThroughput(rt: typeof runtime, storage: ReturnType<typeof folderStorage>, sizeMb: number): Promise<number> {
  const name = 'certificates.bench-download.2099.snapshot.parquet';
  const temp = storage.tempPath(name);
  const handle = await open(temp, 'w');
  const block = Buffer.alloc(1 << 20, 7);
  for (let i = 0; i < sizeMb; i++) await handle.write(block);
  await handle.close();
  const digest = await fileDigest(temp);
  await storage.put(name, temp, digest);
  const entry: BulkFile = {
    name,
    dataset: 'certificates',
    kind: 'snapshot',
    county: 'bench-download',
    tax_year: 2099,
    day: null,
    format: 'parquet',
    rows: 0,
    ...digest,
    generated_at: new Date().toISOString(),
    through_event: null,
  };
  await writeEntry(storage, entry, storage.tempPath(`${name}.manifest`));
  const client = await createClient(rt.sql, { name: 'bench-bulk', plan: 'enterprise' });
  const key = await createKey(rt.sql, { clientId: client.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET });
  const app = await buildApp(rt);
  const url = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
  try {
    const started = performance.now();
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: `/api/v1/bulk/files/${name}`, headers: { authorization: `Bearer ${key.raw}` } },
        (res) => {
          let got = 0;
          res.on('data', (chunk: Buffer) => {
            got += chunk.length;
          });
          res.on('end', () => resolve(got));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const seconds = (performance.now() - started) / 1000;
    if (received !== digest.bytes) throw new Error(`downloaded ${received} bytes of ${digest.bytes}`);
    return Math.round(digest.bytes / 1e6 / seconds);
  } finally {
    await app.close();
    await storage.remove(name);
    await storage.remove(manifestName(name));
  }
}
