/**
 * API benchmark (a script, not a test): latency and throughput of a realistic
 * request mix through the API over real HTTP, against the same Query DSL sent
 * straight to OpenSearch in the same run, and what a deep page costs.
 *
 *   npm run bench:api -- --certificates 1000000          generate + ingest through the real pipeline
 *   npm run bench:api -- --reuse bench-api-1000000 --keep  reuse a kept data set (indices + bench-out/<prefix>)
 *   npm run bench:api -- --reuse bench-api-1000000 --floor the same figures for a bare node:http server around
 *                                                          the same read functions: what one more hop costs here
 *   npm run bench:api -- --reuse bench-api-1000000 --beside-floor
 *                                                          the API's figures, then its CPU per request beside the
 *                                                          floor's and the access floor's (the floor running the
 *                                                          API's access layer) on the floor's request kinds,
 *                                                          passes alternating
 *   npm run bench:api -- --sizes 1000000,3000000,10000000  one run per size (each its own process and data set),
 *                                                          then the API's and the worker's memory side by side
 *
 * The data set is generated and loaded by the taxcert CLI itself (migrate, worker,
 * ingest --manifest --wait) under its own INDEX_PREFIX; `taxcert serve` runs as a
 * child process so the load generator never shares the API's event loop. Requests
 * go through one small helper (`get`), where an API key header is added (--api-key).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { generateAndIngest } from './lib/bench-set.ts';
import { freePort } from './lib/free-port.ts';
import { printBySize, runPerSize } from './lib/per-size.ts';
import { engineHeapMb, memoryOf } from './lib/proc-stats.ts';
import { shebangFlags } from './lib/stack-process.ts';
import { readPage } from '../services/engine/paging/read-page.ts';
import { DEFAULT_PAGE_OPTIONS } from '../services/engine/paging/plan.ts';
import { type SortKey, sortClause } from '../services/engine/paging/sort.ts';
import { buildOtherCertificates } from '../services/api/routes/certificate-quotes/build-other-certificates.ts';
import { buildBidRates } from '../services/api/routes/analytics/bid-rates/build-query.ts';
import { BidRateParams } from '../services/api/routes/analytics/bid-rates/params.ts';
import { HOLDER_GROUP_SORTS, HolderGroupsParams } from '../services/api/routes/analytics/holders/params.ts';
import { searchHolderGroups } from '../services/api/routes/analytics/holders/read.ts';
import { buildByParcel } from '../services/api/routes/certificates/build-by-parcel.ts';
import { buildCertificateSearch } from '../services/api/routes/certificates/build-search.ts';
import { ByParcelParams, CertificateSearchParams } from '../services/api/routes/certificates/params.ts';
import { CERTIFICATE_SOURCE } from '../services/api/routes/certificates/row.ts';
import { ensureLocalOpenSearch } from '../services/process/local-opensearch.ts';
import { loadConfig } from '../services/config.ts';
import { createOpenSearch } from '../services/engine/client.ts';
import { aliasName } from '../services/domain/datasets.ts';
import { normalizeKey } from '../services/domain/ids.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { dropScratch } from './lib/drop-scratch.ts';
import { percentile } from './lib/percentile.ts';
import { portfolioCosts } from './lib/portfolio-bench.ts';
import { geoCosts } from './lib/geo-bench.ts';

const bin = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));
const floorServer = fileURLToPath(new URL('./bench-api-floor.ts', import.meta.url));
const SEED = 4242;
const AS_OF = '2026-11-22';
/** The certificate reads of the mix (the "search mix" its p99 target counts); the rest are investor answers and SQLite. */
const SEARCH_KINDS = new Set(['free text', 'filters + facets', 'by-parcel', 'id lookup', 'deep offset']);

const opts = new Command('bench-api')
  .option('--certificates <n>', 'certificates to generate and ingest', '1000000')
  .option('--reuse <prefix>', 'reuse the data set kept under this INDEX_PREFIX (bench-out/<prefix>/taxcert.db)')
  .option('--keep', 'keep the data set for a later --reuse')
  .option('--replace', 'drop a data set an earlier --keep left under this size, then generate a fresh one')
  .option('--requests <n>', 'requests per measured pass', '600')
  .option('--warmup <n>', 'requests per side before measuring, on other samples than the measured ones', '600')
  .option('--throughput <n>', 'samples for the concurrency pass, its own (the engine-backed share of the mix goes to each side)', '3000')
  .option('--concurrency <n>', 'concurrency of the throughput pass', '8')
  .option('--api-key <key>', 'API key sent as Authorization: Bearer (once the access layer is on)')
  .option(
    '--floor',
    'measure the floor instead of the API: a bare node:http server around the same read functions (scripts/bench-api-floor.ts)',
  )
  .option('--access-floor', "with --floor: the floor runs the API's access layer too (key lookup, in-flight count, Redis window, credit)")
  .option(
    '--beside-floor [rounds]',
    "after the API's figures, start both floors too and alternate CPU passes of the three on the floor's request kinds (2 rounds unless given)",
  )
  .option(
    '--cpu-only [passes]',
    "only the API's CPU per request on the floor's request kinds, pass after pass (3 unless given): a quick A/B of the request path, or with --cpu-prof its profile",
  )
  .option('--cpu-prof <dir>', 'write a V8 CPU profile of the API process into this folder when it stops (slows it a little)')
  .option('--analytics-only', 'only the analytics timed without the request cache (with --reuse: on a kept set), not the request mix')
  .option('--geo-only', 'only the map figures (radius search against the same search without it, geo-grid at zoom 10), on a kept set')
  .option('--portfolios-only', 'only the portfolio figures of --portfolios (with --reuse: on a kept set), not the request mix')
  .option('--portfolios', 'also time a 10,000-position portfolio and one following the largest holder group (import, summary, a page)')
  .option('--no-parcels', "leave the set's parcel rolls out of the load (the map figures and the parcel join then have nothing to read)")
  .option('--sizes <list>', 'comma-separated sizes, one run each, one after another (overrides --certificates)')
  .parse()
  .opts<{
    certificates: string;
    reuse?: string;
    keep?: boolean;
    requests: string;
    warmup: string;
    throughput: string;
    concurrency: string;
    apiKey?: string;
    floor?: boolean;
    replace?: boolean;
    accessFloor?: boolean;
    besideFloor?: boolean | string;
    sizes?: string;
    portfolios?: boolean;
    parcels: boolean;
    portfoliosOnly?: boolean;
    geoOnly?: boolean;
    analyticsOnly?: boolean;
    cpuProf?: string;
    cpuOnly?: boolean | string;
  }>();

if (opts.sizes) {
  // One node for every size: started here when none answers, so no size starts on a cold JVM of its own.
  const sizesConfig = loadConfig({ ...process.env, INDEX_PREFIX: 'bench-api-sizes' });
  const sizesNode = sizesConfig.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(sizesConfig) : null;
  try {
    const sizes = opts.sizes.split(',').map((x) => Number(x.trim()));
    if (sizes.some((x) => !Number.isInteger(x) || x < 1)) throw new Error('--sizes must be positive integers');
    const summaries = await runPerSize(fileURLToPath(import.meta.url), sizes, process.argv.slice(2));
    console.log('\nbench:api by size (memory in MB; latencies through the API in ms)');
    printBySize(summaries);
  } finally {
    await sizesNode?.stop();
  }
  process.exit(0);
}

/** What this run prints last as one SUMMARY line, for --sizes. */
const summary: Record<string, unknown> = { certificates: Number(opts.certificates) };

const n = Number(opts.certificates);
const requests = Number(opts.requests);
const warmup = Number(opts.warmup);
const throughput = Number(opts.throughput);
const concurrency = Number(opts.concurrency);
const prefix = opts.reuse ?? `bench-api-${n}`;
const dir = join(process.cwd(), 'bench-out', prefix);
const env = {
  ...process.env,
  INDEX_PREFIX: prefix,
  DATABASE_PATH: join(dir, 'taxcert.db'),
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  KEY_HASH_SECRET: process.env.KEY_HASH_SECRET ?? 'bench-only-secret-bench-only-secret',
  WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? 'bench-only-webhook-key-bench-only-webhook-key',
  // Production refuses to start without these (the account page mails links); the benchmark sends no mail.
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1',
  SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:2525',
};
const config = loadConfig(env);
const node = config.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(config) : null;
if (!opts.reuse) await startFromNothing();
mkdirSync(dir, { recursive: true });
const runtime = await openRuntime(config, { name: 'bench-api' });
const index = aliasName(prefix, 'certificates');
const children: ChildProcess[] = [];
let apiPid: number | undefined;

/** User + system CPU of a process in ms from /proc (Linux; NaN elsewhere). Clock ticks are 100 per second on Linux. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * A run that generates its data must find none under its prefix: a set kept by an earlier --keep
 * would be loaded again as updates of every document (a third slower at 10M, leaving as many
 * deleted documents to merge away), and the figures would not be a fresh load's.
 */
async function startFromNothing(): Promise<void> {
  const opensearch = createOpenSearch(config);
  try {
    const kept = existsSync(dir) || (await opensearch.indices.existsAlias({ name: aliasName(prefix, 'certificates') })).body;
    if (!kept) return;
    if (!opts.replace) {
      console.error(
        `a data set is kept under ${prefix} (bench-out/${prefix}, its indices): measure it with --reuse ${prefix}, or pass --replace to drop it and load a fresh one`,
      );
      process.exit(2);
    }
    console.error(`dropping the data set kept under ${prefix} (--replace)`);
    await dropScratch({ opensearch }, config, prefix, dir);
  } finally {
    await opensearch.close();
  }
}

/** Generate the files and load them through the real queue and worker, as production does. */
async function ingest(): Promise<void> {
  const { worker, files, ingestSeconds, parcelSeconds, parcelRows } = await generateAndIngest({
    bin,
    env,
    dir,
    certificates: n,
    seed: SEED,
    today: AS_OF,
    parcels: opts.parcels,
  });
  children.push(worker);
  Object.assign(summary, {
    ingestSeconds,
    ...(opts.parcels ? { parcelSeconds, parcelRows, parcelRatio: Math.round((parcelSeconds / ingestSeconds) * 100) / 100 } : {}),
  });
  // The worker's memory must not grow with N.
  summary.workerPeakMb = memoryOf(worker.pid).peakMb;
  worker.kill('SIGTERM');
  rmSync(files, { recursive: true, force: true });
}

/** --cpu-prof's Node flags for the API or the floor. */
function profileFlags(): string[] {
  return opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : [];
}

type Server = 'api' | 'floor' | 'access floor';

async function startApi(
  server: Server = opts.floor ? (opts.accessFloor ? 'access floor' : 'floor') : 'api',
): Promise<{ base: string; pid: number | undefined }> {
  const port = await freePort();
  // The floor runs with the same Node flags as bin/taxcert.js.
  const api =
    server !== 'api'
      ? spawn(process.execPath, [...shebangFlags(), ...profileFlags(), '--import', 'tsx', floorServer], {
          env: { ...env, PORT: String(port), FLOOR_ACCESS: server === 'access floor' ? '1' : '0' },
          stdio: ['ignore', 'ignore', 'inherit'],
        })
      : opts.cpuProf
        ? spawn(process.execPath, [...shebangFlags(), ...profileFlags(), bin, 'serve', '--port', String(port)], {
            env,
            stdio: ['ignore', 'ignore', 'inherit'],
          })
        : spawn(bin, ['serve', '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(api);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return { base, pid: api.pid };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the API did not become healthy within 60 s');
}

// --- the request mix -----------------------------------------------------------------------

interface Sample {
  id: string;
  county: string;
  parcel: string;
  owner: string;
}

/** Real values to ask for, spread over the index by a seeded random score. */
async function samples(count: number): Promise<Sample[]> {
  const res = await runtime.opensearch.search({
    index,
    body: {
      size: count,
      query: { function_score: { query: { match_all: {} }, random_score: { seed: SEED, field: '_seq_no' } } },
      _source: ['id', 'county_slug', 'parcel_id', 'owner_name'],
    } as never,
  });
  return (res.body.hits.hits as unknown as { _source: { id: string; county_slug: string; parcel_id: string; owner_name: string } }[]).map(
    (h) => ({
      id: h._source.id,
      county: h._source.county_slug,
      parcel: h._source.parcel_id,
      owner: h._source.owner_name.split(' ')[0] ?? 'smith',
    }),
  );
}

/**
 * One request of the mix: the API path and the engine request that answers it.
 * The engine side is the DSL the certificate routes send (free text over the
 * searchable fields, filters with facets, parcel lookups, id gets); when the
 * certificate routes' builders change, this list follows them.
 */
interface Scenario {
  kind: string;
  path: string;
  /** null: the route reads SQLite only; it is timed through the API but has no engine twin. */
  engine: (() => Promise<unknown>) | null;
}

const newestSale: SortKey[] = [
  { field: 'sale_date', order: 'desc' },
  { field: 'id', order: 'asc' },
];
/**
 * The engine twin of a search: the route's own builder output sent straight to
 * OpenSearch (page and facet counts in parallel, as the read function does).
 */
function engineOf(params: Record<string, unknown>) {
  const plan = buildCertificateSearch(CertificateSearchParams.parse(params));
  const page = { query: plan.query, sort: plan.sort, limit: 25, source: CERTIFICATE_SOURCE };
  return () =>
    Promise.all([
      readPage(runtime, index, { ...page, offset: Number(params.offset ?? 0) }),
      ...(plan.facetCounts ?? []).map((body) => runtime.opensearch.search({ index, body: body as never })),
    ]);
}

// Quote, timeline and deed estimate of the sampled certificate (target p50 < 15 ms), on a day after
// every sale of the data set. Engine twins: the id get each route makes (plus the deed estimate's
// one search for the parcel's other certificates).
const QUOTE_DATE = '2028-01-01';
function certificateAnswers(x: Sample): Scenario[] {
  const byId = () => runtime.opensearch.get({ index, id: x.id });
  const others = buildOtherCertificates({
    county_slug: x.county,
    parcel_id_normalized: normalizeKey(x.parcel),
    id: x.id,
    as_of: QUOTE_DATE,
  });
  const otherSearch = () =>
    runtime.opensearch.search({
      index,
      body: {
        query: others.query,
        sort: sortClause(others.sort),
        size: others.size,
        track_total_hits: true,
        _source: CERTIFICATE_SOURCE,
      } as never,
    });
  return [
    { kind: 'redemption quote', path: `/api/v1/certificates/${x.id}/redemption?date=${QUOTE_DATE}`, engine: byId },
    { kind: 'timeline', path: `/api/v1/certificates/${x.id}/timeline?date=${QUOTE_DATE}`, engine: byId },
    {
      kind: 'deed estimate',
      path: `/api/v1/certificates/${x.id}/deed-estimate?date=${QUOTE_DATE}`,
      engine: async () => [await byId(), await otherSearch()],
    },
  ];
}

/** GET /analytics/holders: every group is scanned, so its cost is the whole scope's, not the page's. */
function holderGroups(i: number, county: string): Scenario {
  const sort = HOLDER_GROUP_SORTS[i % HOLDER_GROUP_SORTS.length]!;
  const scoped = i % 2 === 0;
  const params = HolderGroupsParams.parse({ sort, ...(scoped ? { county: [county] } : {}) });
  const deps = { opensearch: runtime.opensearch, paging: runtime.paging, config, registry: runtime.registry };
  return {
    kind: 'holder groups',
    path: `/api/v1/analytics/holders?sort=${sort}${scoped ? `&county=${county}` : ''}`,
    engine: () => searchHolderGroups(deps, params),
  };
}

function mix(s: Sample[], total: number): Scenario[] {
  const out: Scenario[] = [];
  s.forEach((x, i) => {
    // Offsets spread over the whole result, a different one for every request (warm-up included).
    const deep = Math.floor((((i * 7919 + 13) % 10_007) / 10_007) * total);
    const parcel = buildByParcel(ByParcelParams.parse({ county: x.county, parcel_id: x.parcel }));
    const byKind: Scenario[] = [
      { kind: 'free text', path: `/api/v1/certificates/search?query=${encodeURIComponent(x.owner)}`, engine: engineOf({ query: x.owner }) },
      {
        kind: 'filters + facets',
        path: `/api/v1/certificates/search?county=${x.county}&redeemed=false&facets=county,status`,
        engine: engineOf({ county: [x.county], redeemed: false, facets: ['county', 'status'] }),
      },
      {
        kind: 'by-parcel',
        path: `/api/v1/certificates/by-parcel?county=${x.county}&parcel_id=${encodeURIComponent(x.parcel)}`,
        engine: () =>
          readPage(runtime, index, { query: parcel.query, sort: parcel.sort, offset: 0, limit: 25, source: CERTIFICATE_SOURCE }),
      },
      { kind: 'id lookup', path: `/api/v1/certificates/${x.id}`, engine: () => runtime.opensearch.get({ index, id: x.id }) },
      { kind: 'deep offset', path: `/api/v1/certificates/search?offset=${deep}`, engine: engineOf({ offset: deep }) },
      { kind: 'counties (SQLite)', path: '/api/v1/counties', engine: null },
      ...certificateAnswers(x),
      ...bidRateScenarios(),
      // Holder groups: the whole index or one county, each sort in turn; the twin is the read function.
      holderGroups(i, x.county),
    ];
    out.push(byKind[i % byKind.length]!);
  });
  return out;
}

/**
 * Bid-rate analytics over the whole index (target p50 < 100 ms). Every request
 * is the same size-0 search, so after the first the shard request cache answers it until the
 * next refresh, as in production; analyticsCosts() below times it with that cache cleared.
 */
function bidRateScenarios(): Scenario[] {
  const body = buildBidRates(BidRateParams.parse({}));
  return [
    {
      kind: 'bid rates (whole index)',
      path: '/api/v1/analytics/bid-rates',
      engine: () => runtime.opensearch.search({ index, body: body as never }),
    },
  ];
}

/**
 * Whole-index analytics through the API with the shard request cache cleared before each call:
 * the aggregation's own cost (targets: bid rates p50 < 100 ms, holder groups < 200 ms).
 * In the mix above, identical requests after the first are answered from that cache.
 */
async function uncachedCost(label: string, path: string, targetMs: number): Promise<void> {
  const cold: number[] = [];
  const warm: number[] = [];
  const paths = new Set<string>();
  for (let i = 0; i < 21; i++) {
    await runtime.opensearch.indices.clearCache({ index, request: true });
    for (const into of [cold, warm]) {
      const t = performance.now();
      const answer = await getWithPath(path);
      // A 404 is a route this build lacks; a 400 is the API refusing a whole-index scope past its
      // cap (HOLDER_GROUPS_MAX_SCOPE, BID_RATES_MAX_SCOPE), which is the answer, not a missing route.
      if (answer.status !== 200)
        return console.log(
          `${label}: answered ${answer.status}${answer.status === 404 ? ' (not served by this build)' : answer.status === 400 ? " (scope over the API's cap at this size)" : ''}`,
        );
      into.push(performance.now() - t);
      paths.add(answer.path ?? 'scan');
    }
  }
  const line = (ms: number[]) => `p50 ${round(percentile(ms, 50))} ms, p99 ${round(percentile(ms, 99))} ms`;
  console.log(
    `${label} [${[...paths].join('/')}]: cold (request cache cleared) ${line(cold)} (target p50 < ${targetMs}, p99 < ${3 * targetMs}); warm ${line(warm)}`,
  );
}

/** The status and the X-Analytics-Path header (rollup or scan) of one GET. */
function getWithPath(path: string): Promise<{ status: number; path: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers, agent: apiAgent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, path: res.headers['x-analytics-path'] as string | undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every analytic route over the whole index and over the largest county (targets: p50 < 100 ms, p99 < 300 ms). */
async function analyticsCosts(): Promise<void> {
  console.log('\nanalytics without the request cache (cold) and with it (warm)');
  for (const [scope, query] of [
    ['whole index', ''],
    ['miami-dade', 'county=miami-dade'],
  ] as const) {
    await uncachedCost(`bid rates, ${scope}`, `/api/v1/analytics/bid-rates?${query}`, 100);
    for (const sort of HOLDER_GROUP_SORTS)
      await uncachedCost(`holder groups ${sort}, ${scope}`, `/api/v1/analytics/holders?sort=${sort}&${query}`, 100);
    await uncachedCost(`redemption curve, ${scope}`, `/api/v1/analytics/redemption-curve?${query}`, 100);
    await uncachedCost(`expected yield, ${scope}`, `/api/v1/analytics/expected-yield?${query}`, 100);
  }
}

// --- measuring -----------------------------------------------------------------------------

let base = '';
const headers: Record<string, string> = {};

/** An Enterprise client and key made by the taxcert CLI, unless --api-key gives one. */
function apiKey(): string {
  if (opts.apiKey) return opts.apiKey;
  const cli = (args: string[]) => JSON.parse(execFileSync(bin, [...args, '--json'], { env, encoding: 'utf8' })) as Record<string, string>;
  const client = cli(['clients', 'create', '--name', 'bench-api', '--plan', 'enterprise']);
  return cli(['keys', 'create', '--client', client.id!]).key!;
}

/**
 * The API is called over the same HTTP stack as the engine twin (node:http with a keep-alive
 * agent, as the OpenSearch client uses): Node 20's fetch costs more per request than the client
 * it is compared with, and that cost was charged to the API alone.
 */
const apiAgent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(path: string, server = base): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server}${path}`, { headers, agent: apiAgent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs every task with the given concurrency; latencies per task and the wall time. */
async function run(tasks: (() => Promise<unknown>)[], parallel: number): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = new Array(tasks.length);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < tasks.length; i = next++) {
        const t = performance.now();
        await tasks[i]!();
        latencies[i] = performance.now() - t;
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** The median of three timed calls, in ms: a deep page's cost at one offset. */
async function median3(f: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  return round(percentile(ms, 50));
}

try {
  if (!opts.reuse) await ingest();
  ({ base, pid: apiPid } = await startApi());
  headers.authorization = `Bearer ${apiKey()}`;
  const total = (await runtime.opensearch.count({ index })).body.count;
  // With --reuse, --certificates is only its default: the SUMMARY line names the set measured.
  summary.certificates = total;
  console.error(
    `index ${index}: ${total} certificates; ${opts.floor ? `the ${opts.accessFloor ? 'access floor' : 'floor'} (scripts/bench-api-floor.ts)` : 'API'} at ${base}`,
  );

  // Which routes exist on this build: a 404 route is left out of the mix and named.
  const measured = Math.max(60, requests);
  const everything = mix(await samples(measured + warmup + throughput), total);
  if (opts.analyticsOnly) {
    await analyticsCosts();
  } else if (opts.geoOnly) {
    Object.assign(summary, await geoCosts(runtime.opensearch, index, base, apiKey()));
    console.log(`SUMMARY ${JSON.stringify(summary)}`);
  } else if (opts.portfoliosOnly) {
    // The portfolio figures alone, on a kept set (--reuse), without the request mix.
    Object.assign(summary, await portfolioCosts(runtime.opensearch, index, base, headers));
    // What holding a followed group's figures costs the API process (its heap is bounded at 320 MB).
    const apiMemory = memoryOf(apiPid);
    summary.apiPeakMb = apiMemory.peakMb;
    summary.apiRssMb = apiMemory.rssMb;
    console.log(`API process: RSS ${apiMemory.rssMb} MB, peak ${apiMemory.peakMb} MB`);
    console.log(`SUMMARY ${JSON.stringify(summary)}`);
  } else if (opts.cpuOnly) {
    const searchOnly = (list: Scenario[]) => list.filter((s) => SEARCH_KINDS.has(s.kind));
    await cpuPasses(
      searchOnly(everything.slice(measured, measured + warmup)),
      searchOnly(everything.slice(measured + warmup)),
      opts.cpuOnly === true ? 3 : Number(opts.cpuOnly),
    );
    process.exitCode = 0;
  } else {
    const all = everything.slice(0, measured);
    const warming = everything.slice(measured, measured + warmup);
    const loading = everything.slice(measured + warmup);
    const present = new Map<string, boolean>();
    for (const s of all) if (!present.has(s.kind)) present.set(s.kind, (await get(s.path)) !== 404);
    const missing = [...present].filter(([, ok]) => !ok).map(([k]) => k);
    if (missing.length > 0) console.error(`routes not served by this build (left out): ${missing.join(', ')}`);
    const served = all.filter((s) => present.get(s.kind)).slice(0, requests);
    const sqliteOnly = served.filter((s) => s.engine === null);
    // The API-versus-engine comparison runs on the engine-backed routes only.
    const engineBacked = (list: Scenario[]) =>
      list.filter((s) => present.get(s.kind) && s.engine !== null) as (Scenario & { engine: () => Promise<unknown> })[];
    const scenarios = engineBacked(served);
    if (sqliteOnly.length > 0) {
      const r = await run(
        sqliteOnly.map((s) => () => get(s.path)),
        1,
      );
      console.log(
        `SQLite-only routes through the API: p50 ${round(percentile(r.latencies, 50))} ms, p99 ${round(percentile(r.latencies, 99))} ms`,
      );
    }
    if (scenarios.length === 0) console.log('no engine-backed certificate route is served by this build yet');
    else await compare(scenarios, engineBacked(warming), engineBacked(loading), total);
    if (opts.besideFloor && !opts.floor) {
      const floorKinds = (list: Scenario[]) => list.filter((s) => SEARCH_KINDS.has(s.kind) && present.get(s.kind));
      await besideFloor(floorKinds(warming), floorKinds(loading), opts.besideFloor === true ? 2 : Number(opts.besideFloor));
    }

    // What a deep page costs: the page plan against a plain from+size at the same offset.
    await deepCosts(total, present.get('deep offset') === true);
    await analyticsCosts();
    if (opts.portfolios) Object.assign(summary, await portfolioCosts(runtime.opensearch, index, base, headers));
    const apiMemory = memoryOf(apiPid);
    summary.apiPeakMb = apiMemory.peakMb;
    summary.apiRssMb = apiMemory.rssMb;
    const heap = await engineHeapMb(runtime.opensearch);
    summary.engineHeapUsedMb = heap.usedMb;
    summary.engineHeapMaxMb = heap.maxMb;
    console.log(
      `\nAPI process RSS ${apiMemory.rssMb} MB (peak ${apiMemory.peakMb} MB)${summary.workerPeakMb ? `; worker peak RSS while ingesting ${summary.workerPeakMb} MB` : ''}`,
    );
    console.log(`SUMMARY ${JSON.stringify(summary)}`);
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  if (!opts.keep && !opts.reuse) await dropAll();
  await runtime.close();
  await node?.stop();
}

async function compare(
  scenarios: (Scenario & { engine: () => Promise<unknown> })[],
  warming: (Scenario & { engine: () => Promise<unknown> })[],
  loading: (Scenario & { engine: () => Promise<unknown> })[],
  total: number,
): Promise<void> {
  // Warm both sides on other samples than the measured ones: a fresh process runs its first
  // thousand requests in V8's lower tiers (an id lookup through the API took 1.2 ms in its
  // first thousand and 0.8 ms in its third), and production measures a process that has run
  // for hours. Each side gets the same requests, so neither finds the other's caches warmer.
  await run(
    warming.map((s) => () => get(s.path)),
    2,
  );
  await run(
    warming.map((s) => s.engine),
    2,
  );

  const statuses = new Map<number, number>();
  const apiTask = (s: Scenario) => async () => {
    const status = await get(s.path);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  };
  // Interleaved, first side alternating: the same query run twice in a row finds the engine's
  // caches (request cache of size-0 counts and facets, filter cache) warm for the second run,
  // so a pass of all API requests followed by a pass of all engine requests flattered the engine.
  const api1: { latencies: number[] } = { latencies: new Array(scenarios.length) };
  const eng1: { latencies: number[] } = { latencies: new Array(scenarios.length) };
  for (const [i, s] of scenarios.entries()) {
    const timed = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      await f();
      return performance.now() - t;
    };
    if (i % 2 === 0) {
      api1.latencies[i] = await timed(apiTask(s));
      eng1.latencies[i] = await timed(s.engine);
    } else {
      eng1.latencies[i] = await timed(s.engine);
      api1.latencies[i] = await timed(apiTask(s));
    }
  }
  // Throughput, on samples of its own and long enough (several seconds a side) that one GC pause or
  // ledger checkpoint does not decide it: each side runs twice, once before and once after the other
  // on the same requests, and the two times add up. The API process's own CPU is read around its passes.
  const half = Math.ceil(loading.length / 2);
  const [first, second] = [loading.slice(0, half), loading.slice(half)];
  const apiCpu0 = processCpuMs(apiPid);
  const a1 = await run(first.map(apiTask), concurrency);
  const apiCpu1 = processCpuMs(apiPid);
  const e1 = await run(
    first.map((s) => s.engine),
    concurrency,
  );
  const e2 = await run(
    second.map((s) => s.engine),
    concurrency,
  );
  const apiCpu2 = processCpuMs(apiPid);
  const a2 = await run(second.map(apiTask), concurrency);
  const apiCpu3 = processCpuMs(apiPid);
  const apiN = { seconds: a1.seconds + a2.seconds };
  const engN = { seconds: e1.seconds + e2.seconds };
  const apiCpuPerRequest = (apiCpu1 - apiCpu0 + apiCpu3 - apiCpu2) / loading.length;

  const byKind = [...new Set(scenarios.map((s) => s.kind))].map((kind) => {
    const idx = scenarios.flatMap((s, i) => (s.kind === kind ? [i] : []));
    const a = idx.map((i) => api1.latencies[i]!);
    const e = idx.map((i) => eng1.latencies[i]!);
    return {
      kind,
      requests: idx.length,
      'api p50 ms': round(percentile(a, 50)),
      'engine p50 ms': round(percentile(e, 50)),
      'api p99 ms': round(percentile(a, 99)),
    };
  });
  console.log(
    `\nAPI benchmark: ${total} certificates, ${scenarios.length} requests per side at concurrency 1, ${loading.length} per side at concurrency ${concurrency}`,
  );
  console.table(byKind);
  const summary = {
    'p50 ms (c=1)': { api: round(percentile(api1.latencies, 50)), engine: round(percentile(eng1.latencies, 50)) },
    'p99 ms (c=1)': { api: round(percentile(api1.latencies, 99)), engine: round(percentile(eng1.latencies, 99)) },
    [`req/s (c=${concurrency})`]: { api: round(loading.length / apiN.seconds), engine: round(loading.length / engN.seconds) },
  };
  console.table(summary);
  console.log(
    `ratios: p50 api/engine ${(percentile(api1.latencies, 50) / percentile(eng1.latencies, 50)).toFixed(2)} (target <= 1.25), ` +
      `api p99 ${round(percentile(api1.latencies, 99))} ms (target < 100), ` +
      `throughput api/engine ${round((engN.seconds / apiN.seconds) * 100)}% (target >= 80%); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  if (Number.isFinite(apiCpuPerRequest))
    console.log(`API process CPU at c=${concurrency}: ${round(apiCpuPerRequest * 1000)} µs per request`);
  // The targets at scale: the search mix (the certificate reads: free text, filters with facets,
  // by-parcel, id lookups, deep offsets) p99 < 100 ms through the API, a deep page < 500 ms p50. The
  // analytics kinds keep their own targets, printed per kind above and uncached below.
  const searchIdx = scenarios.flatMap((s, i) => (SEARCH_KINDS.has(s.kind) ? [i] : []));
  const searchMs = searchIdx.map((i) => api1.latencies[i]!);
  const deepMs = scenarios.flatMap((s, i) => (s.kind === 'deep offset' ? [api1.latencies[i]!] : []));
  Object.assign(summary, {
    mixP50Ms: round(percentile(api1.latencies, 50)),
    mixP99Ms: round(percentile(api1.latencies, 99)),
    searchP50Ms: round(percentile(searchMs, 50)),
    searchP99Ms: round(percentile(searchMs, 99)),
    deepOffsetP50Ms: round(percentile(deepMs, 50)),
    deepOffsetMaxMs: round(Math.max(...deepMs)),
  });
  console.log(
    `search mix (${searchMs.length} certificate reads): p50 ${summary.searchP50Ms} ms, p99 ${summary.searchP99Ms} ms (target < 100); ` +
      `deep offsets p50 ${summary.deepOffsetP50Ms} ms, max ${summary.deepOffsetMaxMs} ms (target p50 < 500)`,
  );
}

/**
 * The API's CPU per request beside the floor's (the target: no more than the bare hop's), in one
 * session on one data set, and beside the access floor's: the floor running the API's own access
 * layer (the key's lookup, the Redis window, the credit), so the API's cost over the floor splits
 * into what the contract's layers cost and what Fastify and the routes' plumbing cost. The floors
 * serve the certificate reads only, so every side runs those (the search mix) at the throughput
 * pass's concurrency; passes rotate (API, access floor, floor, then the reverse, ...) so a burst of
 * load from someone else on the machine lands on every side alike. CPU, not wall time: the machine
 * is shared, and a process's CPU per request hardly moves with the load beside it. Every answer
 * must be a 200: a refused request costs less and would flatter its side.
 */
async function besideFloor(warming: Scenario[], loading: Scenario[], rounds: number): Promise<void> {
  const sides = [{ name: 'API', base, pid: apiPid, cpuMs: 0, requests: 0 }];
  for (const server of ['access floor', 'floor'] as const) {
    const floor = await startApi(server);
    sides.push({ name: server, base: floor.base, pid: floor.pid, cpuMs: 0, requests: 0 });
    // The API has run the whole benchmark by now; a floor gets the warm-up and one untimed pass,
    // or its first pass is timed in V8's lower tiers (1,540 against a later 814-1,048 µs here).
    await run(
      warming.map((s) => () => get(s.path, floor.base)),
      2,
    );
    await run(
      loading.map((s) => () => get(s.path, floor.base)),
      concurrency,
    );
  }
  const refusals = refusalCount();
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    const row: Record<string, number> = { round: round + 1 };
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const before = processCpuMs(side.pid);
      await run(
        loading.map((s) => refusals.counted(s.path, side.base, `${side.name} `)),
        concurrency,
      );
      const ms = processCpuMs(side.pid) - before;
      side.cpuMs += ms;
      side.requests += loading.length;
      row[`${side.name} µs/request`] = Math.round((ms / loading.length) * 1000);
    }
    row.ratio = Math.round((row['API µs/request']! / row['floor µs/request']!) * 100) / 100;
    rows.push(row);
  }
  const [api, layered, bare] = sides.map((s) => (s.cpuMs / s.requests) * 1000) as [number, number, number];
  console.log(
    `\nCPU per request at c=${concurrency} on the floor's request kinds (${loading.length} requests per pass; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')})`,
  );
  console.table(rows);
  refusals.report();
  console.log(
    `API ${Math.round(api)} µs, access floor ${Math.round(layered)} µs, floor ${Math.round(bare)} µs per request: ratio ${(api / bare).toFixed(2)} (target: the API at most 850 µs, the bare hop's cost when the target was set)`,
  );
  console.log(
    `of the API's ${Math.round(api - bare)} µs over the floor: the access layer ${Math.round(layered - bare)} µs, Fastify and the routes' plumbing ${Math.round(api - layered)} µs`,
  );
  Object.assign(summary, { apiCpuUs: Math.round(api), accessFloorCpuUs: Math.round(layered), floorCpuUs: Math.round(bare) });
}

/**
 * --cpu-only: the API's CPU per request on the search mix, pass after pass, and nothing else
 * (no engine twin, no floor, no deep or analytics costs), so two builds of the request path can
 * be compared in a minute each, or profiled (--cpu-prof) on exactly the requests the CPU target counts.
 */
async function cpuPasses(warming: Scenario[], loading: Scenario[], passes: number): Promise<void> {
  await run(
    warming.map((s) => () => get(s.path)),
    2,
  );
  const refusals = refusalCount();
  const counted = (s: Scenario) => refusals.counted(s.path);
  // The first pass places every deep page from scratch; later ones find the marks it left
  // (services/engine/paging/marks.ts), as a client paging on or asking again does.
  const firstBefore = processCpuMs(apiPid);
  await run(loading.map(counted), concurrency);
  console.log(
    `first pass over these requests: ${Math.round(((processCpuMs(apiPid) - firstBefore) / loading.length) * 1000)} µs per request`,
  );
  const perPass: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const before = processCpuMs(apiPid);
    await run(loading.map(counted), concurrency);
    perPass.push(Math.round(((processCpuMs(apiPid) - before) / loading.length) * 1000));
  }
  const sorted = [...perPass].sort((a, b) => a - b);
  console.log(
    `API CPU per request at c=${concurrency} (${loading.length} requests per pass): ${perPass.join(', ')} µs; median ${sorted[Math.floor(sorted.length / 2)]} µs`,
  );
  // Which kinds the CPU goes to: one pass of each kind alone, at the same concurrency.
  const byKind: Record<string, number> = {};
  for (const kind of new Set(loading.map((s) => s.kind))) {
    const ofKind = loading.filter((s) => s.kind === kind);
    const before = processCpuMs(apiPid);
    await run(ofKind.map(counted), concurrency);
    byKind[kind] = Math.round(((processCpuMs(apiPid) - before) / ofKind.length) * 1000);
  }
  console.log(`by kind (µs per request): ${JSON.stringify(byKind)}`);
  refusals.report();
}

/** Answers other than 200 in the CPU passes, by side and status: a refused request costs less and would flatter its side. */
function refusalCount() {
  const statuses = new Map<string, number>();
  return {
    counted:
      (path: string, server = base, label = '') =>
      async () => {
        const status = await get(path, server);
        if (status !== 200) statuses.set(`${label}${status}`, (statuses.get(`${label}${status}`) ?? 0) + 1);
      },
    report() {
      if (statuses.size > 0)
        console.log(`answers other than 200 (the figures above are not comparable): ${JSON.stringify(Object.fromEntries(statuses))}`);
    },
  };
}

/**
 * A plain from+size sorts every document before the offset: 1-3 s at 1,000,000 here, tens of
 * seconds deeper (10,000,000 certificates), so deeper offsets are timed for the page plan only.
 */
function plainComparable(offset: number): boolean {
  return offset <= 1_000_000;
}

async function deepCosts(total: number, viaApi: boolean): Promise<void> {
  const deep = [10_000, 100_000, 500_000, 990_000, 5_000_000, 9_990_000]
    .filter((o) => o < total + 1_000_000)
    .map((o) => Math.min(o, Math.max(0, total - 25)))
    .filter((o, i, a) => a.indexOf(o) === i);
  const physical = Object.keys((await runtime.opensearch.indices.getAlias({ name: index })).body)[0]!;
  const setWindow = (w: number) =>
    runtime.opensearch.indices.putSettings({ index: physical, body: { index: { max_result_window: w } } as never });
  const rows = [];
  for (const offset of deep) {
    const plan = await median3(() => readPage(runtime, index, { query: { match_all: {} }, sort: newestSale, offset, limit: 25 }));
    const api = viaApi ? await median3(() => get(`/api/v1/certificates/search?offset=${offset}`)) : Number.NaN;
    await setWindow(total + 1000);
    const plain = !plainComparable(offset)
      ? Number.NaN
      : await median3(() =>
          runtime.opensearch.search(
            { index, body: { query: { match_all: {} }, sort: sortClause(newestSale), from: offset, size: 25 } as never },
            { requestTimeout: 120_000 },
          ),
        );
    rows.push({ offset, 'page plan ms': plan, 'through the API ms': api, 'plain from+size ms': plain });
  }
  await setWindow(DEFAULT_PAGE_OPTIONS.window);
  console.log('\nwhat a deep page costs (sale_date desc, id asc; median of 3)');
  console.table(rows);
  await relevanceCosts(physical, setWindow);
}

/**
 * A relevance-ordered deep page with a scoring query: a broad one (three scoring
 * clauses, most certificates match, many distinct and many equal scores) so that
 * the middle of its result is deep even on a small data set; the route's own
 * relevance order (score, newest sale, id).
 */
async function relevanceCosts(physical: string, setWindow: (w: number) => Promise<unknown>): Promise<void> {
  const query = {
    bool: { should: [{ match: { site_address_full: 'st' } }, { match: { owner_name: 'llc' } }, { match: { legal_description: 'lot' } }] },
  };
  const sort = buildCertificateSearch(CertificateSearchParams.parse({ query: 'x', sort: 'relevance' })).sort;
  const matches = (await runtime.opensearch.count({ index: physical, body: { query } as never })).body.count;
  const offsets = [0.1, 0.25, 0.5, 0.75].map((f) => Math.floor(f * matches)).filter((o) => o + 25 > DEFAULT_PAGE_OPTIONS.window);
  const rows = [];
  for (const offset of offsets) {
    const plan = await median3(() => readPage(runtime, index, { query, sort, offset, limit: 25, source: CERTIFICATE_SOURCE }));
    await setWindow(matches + 1000);
    const plain = !plainComparable(offset)
      ? Number.NaN
      : await median3(() =>
          runtime.opensearch.search(
            { index, body: { query, sort: sortClause(sort), from: offset, size: 25, _source: CERTIFICATE_SOURCE } as never },
            { requestTimeout: 120_000 },
          ),
        );
    await setWindow(DEFAULT_PAGE_OPTIONS.window);
    rows.push({ offset, 'page plan ms': plan, 'plain from+size ms': plain });
  }
  console.log(`\nwhat a deep relevance page costs (${matches} matches of a three-clause scoring query; score, sale_date, id; median of 3)`);
  console.table(rows);
}

async function dropAll(): Promise<void> {
  await dropScratch(runtime, config, prefix, dir);
}
