/**
 * Ingest benchmark (a script, not a test): generates N certificates, loads them
 * through the real queue and a worker process, and compares the end-to-end rate
 * with the raw _bulk rate of the same documents sent straight to OpenSearch.
 *
 *   npm run bench:ingest -- --certificates 1000000
 *   npm run bench:ingest -- --sizes 100000,300000,1000000   (worker memory as N grows)
 *
 * Uses the local node (started if needed) or OPENSEARCH_URL, the running Redis,
 * and its own index prefix and SQLite file, removed afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { generateFixtures } from './generator/generate-fixtures.ts';
import { generateState } from './generator/generate-state.ts';
import { createBulkWriter } from '../indexer/load/bulk.ts';
import { createPhysicalIndex } from '../indexer/indices/create.ts';
import { loadMapping } from '../indexer/indices/mapping-file.ts';
import { createIngestQueue, redisConnection } from '../indexer/queue.ts';
import { enqueueFiles } from '../services/cli/ingest-runner.ts';
import { manifestJobs } from '../services/cli/manifest-jobs.ts';
import { ensureLocalOpenSearch } from '../services/cli/local-opensearch.ts';
import { envWith, loadConfig } from '../services/config.ts';
import { openRuntime } from '../services/runtime.ts';
import { dropScratch } from './lib/drop-scratch.ts';

const SEED = 4242;
const AS_OF = '2026-11-22';
const bin = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));

const opts = new Command('bench-ingest')
  .option('--certificates <n>', 'certificates to generate and ingest', '1000000')
  .option('--sizes <list>', 'comma-separated sizes to run one after another (overrides --certificates)')
  .option('--concurrency <n>', 'worker files at once (default: WORKER_CONCURRENCY or its default)')
  .parse()
  .opts<{ certificates: string; sizes?: string; concurrency?: string }>();

const sizes = (opts.sizes ?? opts.certificates).split(',').map((s) => Number(s.trim()));
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--certificates/--sizes must be positive integers');

/** CPU seconds a process has used so far (user + system), from /proc (Linux; 100 ticks per second). */
function cpuSecondsOf(pid: number): number {
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

/**
 * CPU seconds the engine has used, summed over its nodes: on a machine shared by the
 * worker and the node, the ratio is decided by how the two split the cores.
 */
async function engineCpuSeconds(client: ReturnType<typeof openRuntime>['opensearch']): Promise<number> {
  const res = await client.nodes.stats({ metric: ['process'] });
  const nodes = Object.values((res.body as { nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }).nodes);
  return nodes.reduce((sum, n) => sum + n.process.cpu.total_in_millis, 0) / 1000;
}

/** Peak and current resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

async function runOnce(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'taxcert-bench-'));
  const prefix = `bench-${process.pid}-${n}`;
  const config = loadConfig(envWith({
    INDEX_PREFIX: prefix,
    DATABASE_PATH: join(dir, 'bench.db'),
    LOG_LEVEL: 'warn',
    WORKER_CONCURRENCY: String(baseConfig.WORKER_CONCURRENCY),
  }));
  const runtime = openRuntime(config, { name: 'bench' });
  let worker: ChildProcess | undefined;
  try {
    // 1. Generate the export files.
    let t = Date.now();
    const files = join(dir, 'files');
    await generateFixtures({ out: files, certificates: n, seed: SEED, today: AS_OF });
    const generateSeconds = (Date.now() - t) / 1000;

    // 2. End to end: queue -> worker process -> OpenSearch -> bookkeeping, until searchable.
    // The worker's log lines carry per-file timings of both passes; kept to show where time went.
    const workerLog = join(dir, 'worker.log');
    const logOut = createWriteStream(workerLog);
    await once(logOut, 'open');
    // Spawned as an executable so it runs with the heap bound of its shebang, as in production.
    worker = spawn(bin, ['worker', '--concurrency', String(config.WORKER_CONCURRENCY)], {
      env: envWith({ INDEX_PREFIX: prefix, DATABASE_PATH: config.DATABASE_PATH, LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'ignore', logOut],
    });
    const samples: number[] = [];
    const sampler = setInterval(() => {
      if (worker?.pid) samples.push(memoryOf(worker.pid).rssMb);
    }, 1000);
    await waitForWorker(config);
    const { jobs } = manifestJobs(join(files, 'manifest.json'));
    const engineBefore = await engineCpuSeconds(runtime.opensearch);
    const workerBefore = cpuSecondsOf(worker.pid!);
    t = Date.now();
    const outcomes = await enqueueFiles(runtime, jobs, { wait: true, expectedRows: n, progressLabel: `pipeline ${n}` });
    const pipelineSeconds = (Date.now() - t) / 1000;
    clearInterval(sampler);
    const failed = outcomes.filter((o) => o.status !== 'succeeded');
    if (failed.length > 0) throw new Error(`${failed.length} files failed: ${failed[0]?.error}`);
    const workerMemory = memoryOf(worker.pid!);
    const pipelineWorkerCpu = cpuSecondsOf(worker.pid!) - workerBefore;
    const pipelineEngineCpu = (await engineCpuSeconds(runtime.opensearch)) - engineBefore;
    worker.kill('SIGTERM');
    const phases = { validate: 0, index: 0 };
    for (const line of readFileSync(workerLog, 'utf8').split('\n')) {
      if (!line.includes('"file ingested"')) continue;
      const t = (JSON.parse(line) as { timingsMs?: { validate: number; index: number } }).timingsMs;
      phases.validate += t?.validate ?? 0;
      phases.index += t?.index ?? 0;
    }

    // 3. Raw _bulk: the same canonical documents, pre-serialized, sent straight to a fresh index.
    const ndjson = join(dir, 'docs.ndjson');
    const out = createWriteStream(ndjson);
    const state = generateState({ certificates: n, seed: SEED, today: AS_OF, parcelBaseUrl: config.PARCEL_BASE_URL });
    for (const record of state.allRecords()) {
      if (!out.write(`${record.id}\t${JSON.stringify(record)}\n`)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    const rawIndex = `${prefix}-certificates-v0-raw`;
    await createPhysicalIndex(runtime.opensearch, rawIndex, 'certificates', loadMapping('certificates'), { replicas: 0, bulk: true });
    const writer = createBulkWriter(runtime.opensearch, { index: rawIndex });
    const rawEngineBefore = await engineCpuSeconds(runtime.opensearch);
    const senderBefore = process.cpuUsage();
    t = Date.now();
    for await (const line of createInterface({ input: createReadStream(ndjson, { highWaterMark: 1 << 20 }) })) {
      const tab = line.indexOf('\t');
      await writer.add(line.slice(0, tab), line.slice(tab + 1));
    }
    const raw = await writer.flush();
    await runtime.opensearch.indices.refresh({ index: rawIndex });
    const rawSeconds = (Date.now() - t) / 1000;
    const sender = process.cpuUsage(senderBefore);
    const rawSenderCpu = (sender.user + sender.system) / 1e6;
    const rawEngineCpu = (await engineCpuSeconds(runtime.opensearch)) - rawEngineBefore;
    const usPerRow = (seconds: number) => Math.round((seconds * 1e6) / n);
    if (raw.failed > 0) throw new Error(`raw bulk: ${raw.failed} documents failed`);

    return {
      certificates: n,
      generateSeconds,
      pipelineSeconds,
      pipelineRowsPerSec: Math.round(n / pipelineSeconds),
      rawSeconds,
      rawDocsPerSec: Math.round(n / rawSeconds),
      ratio: Math.round((rawSeconds / pipelineSeconds) * 1000) / 10,
      // Summed over files (they overlap when concurrency > 1): pass 1 and pass 2 seconds.
      pass1Seconds: Math.round(phases.validate / 100) / 10,
      pass2Seconds: Math.round(phases.index / 100) / 10,
      // CPU per row (µs): what the worker, the engine and the raw sender each spent.
      pipelineWorkerCpuUs: usPerRow(pipelineWorkerCpu),
      pipelineEngineCpuUs: usPerRow(pipelineEngineCpu),
      rawSenderCpuUs: usPerRow(rawSenderCpu),
      rawEngineCpuUs: usPerRow(rawEngineCpu),
      workerPeakMb: workerMemory.peakMb,
      workerRssMaxSampledMb: Math.max(0, ...samples),
    };
  } finally {
    worker?.kill('SIGKILL');
    await dropScratch(runtime, config, prefix, dir);
    // The raw copy's index is not behind an alias of the prefix.
    await runtime.opensearch.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true }).catch(() => undefined);
    await runtime.close();
  }
}

async function waitForWorker(config: ReturnType<typeof loadConfig>): Promise<void> {
  const connection = redisConnection(config);
  const queue = createIngestQueue(config, connection);
  try {
    for (let i = 0; i < 120; i++) {
      if ((await queue.getWorkersCount()) > 0) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the worker process did not start listening within 30 s');
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/**
 * A cold JVM indexes far slower than a warm one, and whichever of pipeline and raw ran
 * first would pay for it. One node serves every size, warmed up once before any timing.
 */
async function warmUp(config: ReturnType<typeof loadConfig>): Promise<void> {
  const runtime = openRuntime(config, { name: 'bench-warmup' });
  const index = `${config.INDEX_PREFIX}-certificates-v0-warmup`;
  try {
    await createPhysicalIndex(runtime.opensearch, index, 'certificates', loadMapping('certificates'), { replicas: 0, bulk: true });
    const writer = createBulkWriter(runtime.opensearch, { index });
    const state = generateState({ certificates: 60_000, seed: 1, today: AS_OF, parcelBaseUrl: config.PARCEL_BASE_URL });
    for (const record of state.allRecords()) await writer.add(record.id, record);
    await writer.flush();
  } finally {
    await runtime.opensearch.indices.delete({ index, ignore_unavailable: true }).catch(() => undefined);
    await runtime.close();
  }
}

const baseConfig = loadConfig(envWith({
  INDEX_PREFIX: `bench-${process.pid}-warm`,
  LOG_LEVEL: 'warn',
  ...(opts.concurrency ? { WORKER_CONCURRENCY: opts.concurrency } : {}),
}));
const node = baseConfig.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(baseConfig) : null;
const results: Awaited<ReturnType<typeof runOnce>>[] = [];
try {
  await warmUp(baseConfig);
  for (const n of sizes) results.push(await runOnce(n));
} finally {
  await node?.stop();
}
console.log('\ningest benchmark (seed %d, worker concurrency %d)', SEED, baseConfig.WORKER_CONCURRENCY);
// One row per figure and one column per N, so the figures of growing N sit side by side.
const figures = Object.keys(results[0] ?? {}).filter((k) => k !== 'certificates') as (keyof (typeof results)[number])[];
const column = (r: (typeof results)[number], i: number) => `N=${r.certificates}${sizes.indexOf(r.certificates) === i ? '' : ` (run ${i + 1})`}`;
console.table(Object.fromEntries(figures.map((f) => [f, Object.fromEntries(results.map((r, i) => [column(r, i), r[f]]))])));
for (const r of results)
  console.log(
    `N=${r.certificates}: pipeline ${r.pipelineRowsPerSec} rows/s end to end, raw _bulk ${r.rawDocsPerSec} docs/s, ratio ${r.ratio}% (target >= 70%), worker peak RSS ${r.workerPeakMb} MB`,
  );
