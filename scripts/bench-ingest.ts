/**
 * Ingest benchmark (a script, not a test), on the operator's path (what operators run, not a worker
 * of its own): the stack `npm start` runs (`taxcert start`: the API serving and its own worker) is
 * started as a child, a generated set of county-year files is loaded with `taxcert ingest
 * --manifest --wait`, and the time that command takes is compared with a raw _bulk of exactly the
 * same documents (read back from the loaded index) into a copy of the same index, same mapping file
 * and the same bulk-mode settings, on the same engine in the same run. Then, on the loaded index,
 * how soon a county's 2,000-row update is searchable and its change events recorded (target: p50
 * under 2 s). With --saved-searches N, then the same load again from an empty certificates index
 * with N saved searches made through the API, the updates again, and a saved search's /matches
 * against the same search (scripts/lib/saved-search-bench.ts).
 *
 *   npm run bench:ingest -- --certificates 1000000
 *   npm run bench:ingest -- --sizes 1000000,3000000,10000000   (memory and index size as N grows)
 *   npm run bench:ingest -- --path worker                      (a `taxcert worker` of its own instead of npm start)
 *   npm run bench:ingest -- --freshness 9 --update-rows 2000
 *   npm run bench:ingest -- --saved-searches 10000             (the load, freshness and /matches with saved searches too)
 *   npm run bench:ingest -- --heaps 1g,4g                      (a local node of each heap in turn, started by the benchmark)
 *
 * Two raw sides are printed. The writer's (`raw*`): the exported file read line by line and sent
 * through the project's bulk writer inside the timed section, as earlier runs measured. The
 * engine's limit (`strictRaw*`, scripts/lib/raw-limit.ts): bodies prepared before timing, batch
 * size and requests in flight chosen by trial, the fastest pair timed on every document; the
 * target ratio is taken against it. Both sides print the share of seconds the engine was below 80%
 * of the machine's cores (scripts/lib/busy-sampler.ts): where the pipeline leaves it waiting.
 *
 * The engine: OPENSEARCH_URL, or the local node on OPENSEARCH_PORT (started, and stopped at the
 * end, when nothing answers there; OPENSEARCH_HEAP sets its heap). Redis: REDIS_URL. Everything
 * else (indices, queue, SQLite, files) lives under a prefix and a temp folder of its own,
 * removed afterwards.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { generateFixtures } from '../services/generator/generate-fixtures.ts';
import { generateState } from '../services/generator/generate-state.ts';
import { measureFreshness } from './lib/freshness.ts';
import { exportDocuments } from './lib/index-copy.ts';
import { engineWork, ingestedLines, storeMb, timeOperatorLoad, timeRawBulk, waitForWorker, workerPhases } from './lib/ingest-sides.ts';
import { fastestRawBulk } from './lib/raw-limit.ts';
import { engineHeapMb, memoryOf } from './lib/proc-stats.ts';
import { measureWithSavedSearches, printSavedSearches } from './lib/saved-search-bench.ts';
import { runTaxcert, type StackProcess, startTaxcert } from './lib/stack-process.ts';
import { createBulkWriter } from '../indexer/load/bulk.ts';
import { createPhysicalIndex } from '../indexer/indices/create.ts';
import { aliasTargets } from '../indexer/indices/ensure.ts';
import { loadMapping } from '../services/engine/mapping-file.ts';
import { savedSearchIndexName } from '../services/engine/saved-search-index.ts';
import { ensureLocalOpenSearch, opensearchAnswers } from '../services/process/local-opensearch.ts';
import { createOpenSearch } from '../services/engine/client.ts';
import { type Config, envWith, loadConfig } from '../services/config.ts';
import { aliasName } from '../services/domain/datasets.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { dropScratch } from './lib/drop-scratch.ts';
import { percentile } from './lib/percentile.ts';

const SEED = 4242;
const AS_OF = '2026-11-22';

const opts = new Command('bench-ingest')
  .option('--certificates <n>', 'certificates to generate and ingest', '1000000')
  .option('--sizes <list>', 'comma-separated sizes to run one after another (overrides --certificates)')
  .option('--path <path>', 'start: the npm start stack (API and its worker in one process); worker: a taxcert worker of its own', 'start')
  .option('--concurrency <n>', 'worker files at once (default: WORKER_CONCURRENCY or its default)')
  .option('--freshness <samples>', 'county updates timed on the loaded index (0: none)', '7')
  .option('--update-rows <n>', 'rows of each county update', '2000')
  .option('--saved-searches <n>', 'then the load again, freshness and /matches with this many saved searches (0: none)', '0')
  .option('--cpu-prof <dir>', 'write a V8 CPU profile of the stack process into this folder (slows it a little)')
  .option('--logs <dir>', "keep the stack's log (the worker's per-file timings) in this folder")
  .option(
    '--heaps <list>',
    'comma-separated heaps of the local node (e.g. 1g,4g): each started in turn by the benchmark, every size run on each',
  )
  .option('--raw-sizes <list>', "documents per _bulk request the engine's-limit raw side tries", '1000,2500,5000,10000')
  .option('--raw-in-flight <list>', "requests in flight the engine's-limit raw side tries", '1,2,3,4')
  .option('--raw-trial-docs <n>', 'documents each raw trial loads (at most N)', '200000')
  .parse()
  .opts<{
    certificates: string;
    sizes?: string;
    path: string;
    concurrency?: string;
    freshness: string;
    updateRows: string;
    savedSearches: string;
    cpuProf?: string;
    logs?: string;
    heaps?: string;
    rawSizes: string;
    rawInFlight: string;
    rawTrialDocs: string;
  }>();

const sizes = (opts.sizes ?? opts.certificates).split(',').map((s) => Number(s.trim()));
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--certificates/--sizes must be positive integers');
if (opts.path !== 'start' && opts.path !== 'worker') throw new Error('--path must be start or worker');
const positiveList = (flag: string, list: string) => {
  const values = list.split(',').map((x) => Number(x.trim()));
  if (values.some((x) => !Number.isInteger(x) || x < 1)) throw new Error(`${flag} must be comma-separated positive integers`);
  return values;
};
const rawSizes = positiveList('--raw-sizes', opts.rawSizes);
const rawInFlight = positiveList('--raw-in-flight', opts.rawInFlight);
const [rawTrialDocs] = positiveList('--raw-trial-docs', opts.rawTrialDocs);
const heaps = opts.heaps?.split(',').map((h) => h.trim()) ?? [];
if (heaps.some((h) => !/^\d+[mg]$/.test(h))) throw new Error('--heaps must be sizes such as 1g,4g');
const freshnessSamples = Number(opts.freshness);
const updateRows = Number(opts.updateRows);
const savedSearchCount = Number(opts.savedSearches);
if (!Number.isInteger(savedSearchCount) || savedSearchCount < 0) throw new Error('--saved-searches must be 0 or a positive integer');
// Saved searches are made through the API, which the worker path does not run.
if (savedSearchCount > 0 && opts.path !== 'start') throw new Error('--saved-searches needs --path start');

/** Size of a generated set's data files, in MB. */
function filesMb(dir: string): number {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: { path: string }[] };
  return Math.round(manifest.files.reduce((sum, f) => sum + statSync(join(dir, f.path)).size, 0) / 2 ** 20);
}

/**
 * The stack runs as operators run it in production (as bench:api's API does): NODE_ENV=production
 * with the secrets and addresses production requires, none of which the benchmark uses. Outside
 * production the control plane guards against a programming error with a per-promise hook
 * (services/control/db/sqlite.ts checkNesting) that costs the worker about 5% of its CPU per row.
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  KEY_HASH_SECRET: process.env.KEY_HASH_SECRET ?? 'bench-only-secret-bench-only-secret',
  WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? 'bench-only-webhook-key-bench-only-webhook-key',
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1',
  SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:2525',
};

async function runOnce(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'taxcert-bench-'));
  const prefix = `bench-${process.pid}-${n}`;
  const env = envWith({
    ...PRODUCTION,
    INDEX_PREFIX: prefix,
    DATABASE_PATH: join(dir, 'taxcert.db'),
    OPENSEARCH_URL: baseConfig.OPENSEARCH_URL,
    // info: the worker's "file ingested" lines carry each file's timings.
    LOG_LEVEL: 'info',
    WORKER_CONCURRENCY: String(baseConfig.WORKER_CONCURRENCY),
  });
  const config = loadConfig(env);
  const runtime = await openRuntime({ ...config, LOG_LEVEL: 'warn' }, { name: 'bench' });
  let stack: StackProcess | undefined;
  try {
    // 1. The county-year files, streamed to disk.
    const t = Date.now();
    const files = join(dir, 'files');
    const generated = await generateFixtures({ out: files, certificates: n, seed: SEED, today: AS_OF });
    const generateSeconds = (Date.now() - t) / 1000;
    console.error(`N=${n}: generated ${generated.files} files in ${generateSeconds} s`);

    // 2. The operator's path: the stack, then `taxcert ingest --manifest --wait` against it.
    const stackLog = join(dir, 'stack.log');
    const manifest = join(files, 'manifest.json');
    await runTaxcert(['migrate'], { env, cwd: dir });
    const startStack = async () => {
      const started = await startTaxcert(opts.path === 'start' ? ['start', '--no-demo'] : ['worker'], {
        env,
        ...(opts.cpuProf ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] } : {}),
        cwd: dir,
        logFile: stackLog,
        api: opts.path === 'start',
      });
      // The CLI runs a worker of its own when none listens: the stack's must be there first.
      await waitForWorker(config);
      return started;
    };
    stack = await startStack();
    const pipeline = await timeOperatorLoad(runtime, { env, cwd: dir, manifest, stackPid: stack.pid });
    const pipelineSeconds = pipeline.seconds;
    const alias = aliasName(prefix, 'certificates');
    const loaded = (await runtime.opensearch.count({ index: alias })).body.count;
    if (loaded !== n) throw new Error(`the pipeline left ${loaded} certificates searchable, not ${n}`);
    const physical = (await aliasTargets(runtime.opensearch, alias))[0]!;
    const pipelineStoreMb = await storeMb(runtime, physical);
    const pipelineWork = await engineWork(runtime, physical);
    const phases = workerPhases(ingestedLines(stackLog));

    // 3. The certificates the pipeline wrote, read back (not timed), for the raw side: through the
    // public alias, which leaves out the rollups the pipeline wrote beside them (its own work).
    const ndjson = join(dir, 'docs.ndjson');
    const exported = await exportDocuments(runtime.opensearch, alias, ndjson);
    if (exported !== n) throw new Error(`exported ${exported} documents, not ${n}`);

    // 4. Freshness on the loaded index, through the same stack.
    const state = generateState({ certificates: n, seed: SEED, today: AS_OF, parcelBaseUrl: config.PARCEL_BASE_URL });
    const freshness =
      freshnessSamples > 0 ? await measureFreshness(runtime, { state, samples: freshnessSamples, rows: updateRows, dir, asOf: AS_OF }) : [];
    const stackMemory = memoryOf(stack.pid);
    await stack.stop();
    stack = undefined;
    // Where each update's time went, as the worker logged it (the job's own duration and phases).
    const logged = new Map(ingestedLines(stackLog).map((l) => [l.file, l]));
    const freshnessRows = freshness.map(({ path, ...f }) => ({
      ...f,
      jobMs: logged.get(path)?.durationMs,
      ...logged.get(path)?.timingsMs,
    }));

    // 5. Raw _bulk: the same documents into a copy made from the same mapping file, loaded under
    // the same bulk mode the worker holds (entered and left once, as a busy worker does).
    const rawIndex = `${prefix}-certificates-raw`;
    const raw = await timeRawBulk(runtime, { index: rawIndex, like: physical, ndjson, replicas: config.OPENSEARCH_REPLICAS });
    const rawSeconds = raw.seconds;
    const rawStoreMb = await storeMb(runtime, rawIndex);
    const rawWork = await engineWork(runtime, rawIndex);
    const usPerRow = (seconds: number) => Math.round((seconds * 1e6) / n);
    const heap = await engineHeapMb(runtime.opensearch);
    const ratio = Math.round((rawSeconds / pipelineSeconds) * 1000) / 1000;
    await runtime.opensearch.indices.delete({ index: rawIndex });
    const strict = await fastestRawBulk(runtime.opensearch, {
      index: rawIndex,
      ndjson,
      dir: join(dir, 'raw-bodies'),
      replicas: config.OPENSEARCH_REPLICAS,
      sizes: rawSizes,
      inFlight: rawInFlight,
      trialDocs: Math.min(rawTrialDocs!, n),
    });
    const strictRatio = Math.round((strict.seconds / pipelineSeconds) * 1000) / 1000;

    // 6. With saved searches: the same load again from an empty index, freshness and /matches.
    const savedSearches =
      savedSearchCount > 0
        ? await measureWithSavedSearches({
            runtime,
            env,
            dir,
            n,
            count: savedSearchCount,
            seed: SEED,
            state,
            manifest,
            ndjson,
            stackLog,
            asOf: AS_OF,
            freshness: { samples: freshnessSamples, rows: updateRows },
            baseline: { ratio, pipelineSeconds },
            startStack,
          })
        : undefined;

    return {
      certificates: n,
      files: generated.files,
      filesMb: filesMb(files),
      generateSeconds,
      pipelineSeconds,
      pipelineRowsPerSec: Math.round(n / pipelineSeconds),
      rawSeconds,
      rawDocsPerSec: Math.round(n / rawSeconds),
      // The machine's load as each side ended (about 2 is the benchmark alone on two cores).
      pipelineLoad1: pipeline.load1,
      rawLoad1: raw.load1,
      ratio,
      strictRawSeconds: strict.seconds,
      strictRawDocsPerSec: strict.docsPerSec,
      strictRawBest: `${strict.best.docsPerRequest} docs x ${strict.best.inFlight} in flight`,
      strictRatio,
      // Share of seconds the engine used under 80% of the cores, and its mean cores, on each side.
      pipelineEngineIdleShare: pipeline.busy.engineIdleShare,
      pipelineEngineMeanCores: pipeline.busy.engineMeanCores,
      pipelineStackMeanCores: pipeline.busy.othersMeanCores.stack,
      pipelineCliMeanCores: pipeline.busy.othersMeanCores.cli,
      strictRawEngineIdleShare: strict.busy.engineIdleShare,
      strictRawEngineMeanCores: strict.busy.engineMeanCores,
      strictRawSenderCpuUs: usPerRow(strict.senderCpu),
      strictRawTrials: strict.trials.map((t) => `${t.docsPerRequest}x${t.inFlight}:${t.docsPerSec}`).join(' '),
      // What the ratio would be if both sides had the two cores to themselves (CPU-bound, as on a
      // quiet 2-core machine): CPU per row of the raw side over the pipeline's. On a machine shared
      // with other work, wall-clock rates follow the neighbours; CPU per row much less.
      cpuRatio:
        Math.round(((raw.engineCpu + raw.senderCpu) / (pipeline.engineCpu + pipeline.stack.cpuSeconds + pipeline.cli.cpuSeconds)) * 1000) /
        1000,
      // Summed over files (they overlap when the worker runs several at once).
      ...Object.fromEntries(Object.entries(phases.seconds).map(([k, v]) => [`${k}Seconds`, v])),
      // CPU per row (µs): the stack (API + worker), the CLI, the engine; the raw sender and the engine.
      stackCpuUs: usPerRow(pipeline.stack.cpuSeconds),
      cliCpuUs: usPerRow(pipeline.cli.cpuSeconds),
      pipelineEngineCpuUs: usPerRow(pipeline.engineCpu),
      rawSenderCpuUs: usPerRow(raw.senderCpu),
      rawEngineCpuUs: usPerRow(raw.engineCpu),
      stackPeakMb: stackMemory.peakMb,
      stackRssMaxSampledMb: pipeline.stack.maxRssMb,
      cliRssMaxSampledMb: pipeline.cli.maxRssMb,
      engineHeapUsedMb: heap.usedMb,
      engineHeapMaxMb: heap.maxMb,
      indexMb: pipelineStoreMb,
      indexMbPer1M: Math.round((pipelineStoreMb * 1e6) / n),
      rawIndexMb: rawStoreMb,
      ...Object.fromEntries(Object.entries(pipelineWork).map(([k, v]) => [`pipeline ${k}`, v])),
      ...Object.fromEntries(Object.entries(rawWork).map(([k, v]) => [`raw ${k}`, v])),
      freshnessP50Ms: freshness.length
        ? percentile(
            freshness.map((f) => f.visibleMs),
            50,
          )
        : Number.NaN,
      freshnessP90Ms: freshness.length
        ? percentile(
            freshness.map((f) => f.visibleMs),
            90,
          )
        : Number.NaN,
      freshnessCompletedP50Ms: freshness.length
        ? percentile(
            freshness.map((f) => f.completedMs),
            50,
          )
        : Number.NaN,
      freshnessSamples: freshnessRows,
      savedSearches,
    };
  } finally {
    await stack?.stop();
    if (opts.logs) {
      mkdirSync(opts.logs, { recursive: true });
      copyFileSync(join(dir, 'stack.log'), join(opts.logs, `${prefix}-${opts.path}.log`));
    }
    await dropScratch(runtime, config, prefix, dir);
    // The raw copy's index is not behind an alias of the prefix, nor is the saved searches' percolator index.
    await runtime.opensearch.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true }).catch(() => undefined);
    await runtime.opensearch.indices.delete({ index: savedSearchIndexName(prefix), ignore_unavailable: true }).catch(() => undefined);
    await runtime.close();
  }
}

/**
 * A cold JVM indexes far slower than a warm one, and whichever of pipeline and raw ran
 * first would pay for it. One node serves every size, warmed up once before any timing.
 * 300,000 documents: after 60,000 a freshly started node still spent a third more CPU per
 * document on the pipeline side of the first run (133 against 99 µs at 1M, ratio 0.56 against
 * 0.75 in the run after it on the same node).
 */
async function warmUp(config: Config): Promise<void> {
  const runtime = await openRuntime(config, { name: 'bench-warmup' });
  const index = `${config.INDEX_PREFIX}-certificates-v0-warmup`;
  try {
    await createPhysicalIndex(runtime.opensearch, index, 'certificates', loadMapping('certificates'), { replicas: 0, bulk: true });
    const writer = createBulkWriter(runtime.opensearch, { index });
    const state = generateState({ certificates: 300_000, seed: 1, today: AS_OF, parcelBaseUrl: config.PARCEL_BASE_URL });
    for (const record of state.allRecords()) await writer.add(record.id, record);
    await writer.flush();
  } finally {
    await runtime.opensearch.indices.delete({ index, ignore_unavailable: true }).catch(() => undefined);
    await runtime.close();
  }
}

const baseConfig = loadConfig(
  envWith({
    INDEX_PREFIX: `bench-${process.pid}-warm`,
    LOG_LEVEL: 'warn',
    ...(opts.concurrency ? { WORKER_CONCURRENCY: opts.concurrency } : {}),
  }),
);
const results: (Awaited<ReturnType<typeof runOnce>> & { heap: string })[] = [];
// Each heap a node of its own, started here (one already answering would be some other heap);
// without --heaps, the node that answers or the local one `npm start` would start.
for (const heap of heaps.length ? heaps : [undefined]) {
  if (heap !== undefined) {
    if (!baseConfig.OPENSEARCH_LOCAL) throw new Error('--heaps needs the local node (OPENSEARCH_URL unset)');
    if (await opensearchAnswers(baseConfig.OPENSEARCH_URL))
      throw new Error(
        `a node already answers at ${baseConfig.OPENSEARCH_URL}: stop it (npm run opensearch:stop) so --heaps can start its own`,
      );
    process.env.OPENSEARCH_HEAP = heap;
  }
  const node = baseConfig.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(baseConfig) : null;
  try {
    await warmUp(baseConfig);
    const probe = createOpenSearch(baseConfig);
    const heapLabel = `${(await engineHeapMb(probe).finally(() => probe.close())).maxMb} MB`;
    for (const n of sizes) {
      const r = { ...(await runOnce(n)), heap: heapLabel };
      results.push(r);
      console.error(JSON.stringify(r));
    }
  } finally {
    await node?.stop();
  }
}
console.log(
  '\ningest benchmark (seed %d, path %s, worker concurrency %d, engine %s)',
  SEED,
  opts.path === 'start' ? 'npm start + taxcert ingest --manifest --wait' : 'taxcert worker + taxcert ingest --manifest --wait',
  baseConfig.WORKER_CONCURRENCY,
  baseConfig.OPENSEARCH_URL,
);
// One row per figure and one column per N, so the figures of growing N sit side by side.
const figures = [...new Set(results.flatMap((r) => Object.keys(r)))].filter(
  (k) => k !== 'certificates' && k !== 'freshnessSamples' && k !== 'savedSearches' && k !== 'heap',
);
const column = (r: (typeof results)[number], i: number) =>
  `N=${r.certificates}, heap ${r.heap}${results.length > 1 ? ` (run ${i + 1})` : ''}`;
console.table(
  Object.fromEntries(figures.map((f) => [f, Object.fromEntries(results.map((r, i) => [column(r, i), (r as Record<string, unknown>)[f]]))])),
);
for (const r of results) {
  console.log(
    `N=${r.certificates}, engine heap ${r.heap}: ${opts.path === 'start' ? 'npm start' : 'worker'} path ${r.pipelineRowsPerSec} rows/s (taxcert ingest --manifest --wait, ${r.pipelineSeconds} s), ` +
      `raw _bulk at the engine's limit ${r.strictRawDocsPerSec} docs/s (${r.strictRawBest}), ratio ${r.strictRatio} (target >= 0.75; ` +
      `the bulk writer's raw side ${r.rawDocsPerSec} docs/s, ratio ${r.ratio}); engine under 80% busy: pipeline ${r.pipelineEngineIdleShare}, ` +
      `raw ${r.strictRawEngineIdleShare} of seconds; stack peak RSS ${r.stackPeakMb} MB; ` +
      `freshness of a ${updateRows}-row county update (searchable and its change events recorded): p50 ${r.freshnessP50Ms} ms, p90 ${r.freshnessP90Ms} ms (target p50 <= 2000)`,
  );
  if (r.freshnessSamples.length) console.table(r.freshnessSamples);
  if (r.savedSearches) printSavedSearches(r.certificates, r.savedSearches);
}
