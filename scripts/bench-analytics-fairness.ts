/**
 * Analytics fairness benchmark (a script, not a test): what one credit buys on the analytic
 * routes, and what a client flooding them does to another client's searches.
 *
 *   npm run bench:fairness                                   generate + ingest 100,000 certificates
 *   npm run bench:fairness -- --certificates 1000000 --keep  the 1M set, kept for --reuse
 *   npm run bench:fairness -- --reuse bench-fair-1000000     measure a kept set again
 *
 * (a) Engine CPU of the most expensive one-credit call of each analytic route: the node's
 *     process.cpu.total_in_millis before and after the single call through the API, the shard
 *     request cache cleared first. The node may be shared, so each call is repeated and the
 *     least is reported (another process's work only ever adds to a delta), raw and less the
 *     node's CPU over an idle window just before (an estimate of the other clients' share).
 * (b) Another client's search p95: an Enterprise client searching one request at a time, alone,
 *     then while a free-trial-like client (30 requests a minute) sends the most expensive
 *     analytics from several connections at once, every time its window or the analytics cap
 *     lets it (an abusive client: it retries a 429 after 250 ms whatever Retry-After says).
 *
 * The data set is generated and loaded by the taxcert CLI itself (migrate, worker, ingest
 * --manifest --wait) under its own INDEX_PREFIX; `taxcert serve` runs as a child process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { generateAndIngest } from './lib/bench-set.ts';
import { freePort } from './lib/free-port.ts';
import { dropScratch } from './lib/drop-scratch.ts';
import { percentile } from './lib/percentile.ts';
import { ensureLocalOpenSearch } from '../services/process/local-opensearch.ts';
import { loadConfig } from '../services/config.ts';
import { createOpenSearch } from '../services/engine/client.ts';
import { aliasName } from '../services/domain/datasets.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { scopeCap } from '../services/api/routes/analytics/holders/read.ts';

const bin = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));
const SEED = 4242;
const AS_OF = '2026-11-22';

const opts = new Command('bench-analytics-fairness')
  .option('--certificates <n>', 'certificates to generate and ingest', '100000')
  .option('--reuse <prefix>', 'reuse the data set kept under this INDEX_PREFIX (bench-out/<prefix>/taxcert.db)')
  .option('--keep', 'keep the data set for a later --reuse')
  .option('--replace', 'drop a data set an earlier --keep left under this prefix, then generate a fresh one')
  .option('--repeat <n>', 'times each expensive call is measured (the least engine CPU is reported)', '4')
  .option('--seconds <n>', 'seconds of each phase of the flood measurement (alone, then flooded)', '60')
  .option('--flooders <n>', 'connections the flooding client sends from at once', '8')
  .option('--only <part>', 'cpu or flood: one part only')
  .parse()
  .opts<{
    certificates: string;
    reuse?: string;
    keep?: boolean;
    replace?: boolean;
    repeat: string;
    seconds: string;
    flooders: string;
    only?: string;
  }>();

const n = Number(opts.certificates);
const prefix = opts.reuse ?? `bench-fair-${n}`;
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
const children: ChildProcess[] = [];
const index = aliasName(prefix, 'certificates');

/** A kept set is measured with --reuse, never silently loaded again on top of itself. */
async function startFromNothing(): Promise<void> {
  const opensearch = createOpenSearch(config);
  try {
    const kept = existsSync(dir) || (await opensearch.indices.existsAlias({ name: index })).body;
    if (!kept) return;
    if (!opts.replace) {
      console.error(`a data set is kept under ${prefix}: measure it with --reuse ${prefix}, or pass --replace to drop it`);
      process.exit(2);
    }
    await dropScratch({ opensearch }, config, prefix, dir);
  } finally {
    await opensearch.close();
  }
}

async function ingest(): Promise<void> {
  const { worker } = await generateAndIngest({ bin, env, dir, certificates: n, seed: SEED, today: AS_OF });
  worker.kill('SIGTERM');
}

async function startApi(): Promise<string> {
  const port = await freePort();
  const api = spawn(bin, ['serve', '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(api);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return base;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the API did not become healthy within 60 s');
}

const cli = (args: string[]) => JSON.parse(execFileSync(bin, [...args, '--json'], { env, encoding: 'utf8' })) as Record<string, string>;

/** A client of the plan and its key, made by the taxcert CLI. */
function apiKey(plan: string): { key: string; clientId: string } {
  const client = cli(['clients', 'create', '--name', `bench-fair-${plan}`, '--plan', plan]);
  return { key: cli(['keys', 'create', '--client', client.id!]).key!, clientId: client.id! };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(base: string, path: string, key: string): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- (a) engine CPU per one-credit call ------------------------------------------------------

/**
 * The widest scope a route accepts under its cap: the whole index if it fits, else the
 * wider of the largest county with as many of its largest tax years as fit and whole counties
 * from the smallest up. Built from exact per-(county, year) counts, so the measured call is the
 * costliest one-credit call of its kind this data set allows.
 */
async function widestScope(cap: number): Promise<string> {
  const opensearch = createOpenSearch(config);
  try {
    const res = await opensearch.search({
      index,
      body: {
        size: 0,
        aggs: { c: { terms: { field: 'county_slug', size: 67 }, aggs: { y: { terms: { field: 'tax_year', size: 200 } } } } },
      } as never,
    });
    type Bucket = { key: string | number; doc_count: number; y?: { buckets: Bucket[] } };
    const counties = (res.body.aggregations as unknown as { c: { buckets: Bucket[] } }).c.buckets;
    const total = counties.reduce((sum, c) => sum + c.doc_count, 0);
    if (total <= cap) return '';
    // Two ways to fill the cap; the one reading more certificates is measured: the largest county
    // with as many of its largest tax years as fit, or whole counties from the smallest up (many
    // counties, many groups).
    const [top] = counties;
    if (!top) return '';
    let one = { sum: 0, scope: '' };
    if (top.doc_count > cap) {
      const years: (string | number)[] = [];
      for (const y of top.y!.buckets) {
        if (one.sum + y.doc_count > cap) continue;
        years.push(y.key);
        one.sum += y.doc_count;
      }
      one.scope = `&county=${top.key}&tax_year=${years.join(',')}`;
    } else one = { sum: top.doc_count, scope: `&county=${top.key}` };
    const small: (string | number)[] = [];
    let smallSum = 0;
    for (const c of [...counties].reverse()) {
      if (smallSum + c.doc_count > cap) break;
      small.push(c.key);
      smallSum += c.doc_count;
    }
    return smallSum > one.sum ? `&county=${small.join(',')}` : one.scope;
  } finally {
    await opensearch.close();
  }
}

/**
 * The most expensive call each analytic route accepts for one credit: the widest scope under
 * its cap and the largest page. Candidates go from the widest (main's limits: the whole
 * index, 500 groups) down; a call the build refuses (a 400) is reported and the next one
 * measured, so the same script gives the before and after figures.
 */
async function expensiveCalls(): Promise<{ route: string; candidates: string[] }[]> {
  const bidScope = await widestScope(config.BID_RATES_MAX_SCOPE);
  const sorts = ['median_rate_asc', 'name_asc', 'face_desc', 'certificates_desc'] as const;
  const holders = [];
  for (const sort of sorts) {
    const holderScope = await widestScope(scopeCap(config.HOLDER_GROUPS_MAX_SCOPE, sort));
    holders.push({
      route: `holders sort=${sort}`,
      candidates: [
        ...[500, 100, 50].map((limit) => `/api/v1/analytics/holders?sort=${sort}&limit=${limit}`),
        `/api/v1/analytics/holders?sort=${sort}&limit=50${holderScope}`,
      ],
    });
  }
  return [
    { route: 'bid-rates', candidates: ['/api/v1/analytics/bid-rates', `/api/v1/analytics/bid-rates?${bidScope.slice(1)}`] },
    ...holders,
  ];
}

async function nodeCpuMs(opensearch: ReturnType<typeof createOpenSearch>): Promise<number> {
  const res = await opensearch.nodes.stats({ node_id: '_local', metric: ['process'] });
  const nodes = res.body.nodes as Record<string, { process: { cpu: { total_in_millis: number } } }>;
  return Object.values(nodes)[0]!.process.cpu.total_in_millis;
}

async function cpuPart(base: string, key: string): Promise<Record<string, unknown>[]> {
  const opensearch = createOpenSearch(config);
  const rows: Record<string, unknown>[] = [];
  try {
    for (const { route, candidates } of await expensiveCalls()) {
      for (const path of candidates) {
        const cpu: number[] = [];
        const net: number[] = [];
        const wall: number[] = [];
        let status = 0;
        for (let i = 0; i < Number(opts.repeat); i++) {
          await opensearch.indices.clearCache({ index, request: true, query: true, fielddata: true });
          // What the node spends with nothing of ours running (other clients of a shared node),
          // over as long a window as the call's, is subtracted to give the net figure. The node's
          // CPU counter is refreshed about once a second: each reading waits that long.
          await sleep(1100);
          const idleStart = await nodeCpuMs(opensearch);
          await sleep(2200);
          const idle = (await nodeCpuMs(opensearch)) - idleStart;
          await sleep(1100);
          const before = await nodeCpuMs(opensearch);
          const t = performance.now();
          status = (await get(base, path, key)).status;
          wall.push(performance.now() - t);
          await sleep(1100);
          const spent = (await nodeCpuMs(opensearch)) - before;
          cpu.push(spent);
          net.push(Math.max(0, spent - Math.round((idle * (2200 + wall.at(-1)!)) / 2200)));
          if (status === 400) break;
        }
        if (status === 400) {
          console.log(`${route}: ${path} refused (400)`);
          continue;
        }
        const row = {
          route,
          path,
          status,
          engineCpuMs: Math.min(...cpu),
          netCpuMs: Math.min(...net),
          wallMs: Math.round(Math.min(...wall)),
        };
        console.log(
          `${route}: ${path} -> ${status}, engine CPU ${row.engineCpuMs} ms (all ${cpu.join(', ')}; less the node's idle rate: ${net.join(', ')}), wall ${row.wallMs} ms`,
        );
        rows.push(row);
        break;
      }
    }
  } finally {
    await opensearch.close();
  }
  return rows;
}

// --- (b) another client's search p95, alone and flooded --------------------------------------

const VICTIM_PATHS = [
  '/api/v1/certificates/search?query=smith',
  '/api/v1/certificates/search?county=broward&redeemed=false&facets=county,status',
  '/api/v1/certificates/search?county=miami-dade&sort=face_desc',
  '/api/v1/certificates/search?query=trust&facets=status',
];

async function victim(base: string, key: string, seconds: number): Promise<{ p50: number; p95: number; n: number; errors: number }> {
  const ms: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const t = performance.now();
    const { status } = await get(base, VICTIM_PATHS[i % VICTIM_PATHS.length]!, key);
    ms.push(performance.now() - t);
    if (status !== 200) errors += 1;
  }
  return { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)), n: ms.length, errors };
}

/** The flooding client: every connection sends the costliest analytic again as soon as it may. */
function flood(base: string, key: string, paths: string[], stop: { done: boolean }): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  return Promise.all(
    Array.from({ length: Number(opts.flooders) }, async (_, w) => {
      for (let i = w; !stop.done; i++) {
        const { status } = await get(base, paths[i % paths.length]!, key);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 429) await sleep(250);
      }
    }),
  ).then(() => statuses);
}

async function floodPart(base: string, victimKey: string, paths: string[]): Promise<Record<string, unknown>> {
  const seconds = Number(opts.seconds);
  await victim(base, victimKey, 5); // warm-up
  const alone = await victim(base, victimKey, seconds);
  console.log(`victim alone: p50 ${alone.p50} ms, p95 ${alone.p95} ms (${alone.n} searches, ${alone.errors} not 200)`);
  // The free trial's own window (30 requests a minute).
  const flooder = apiKey('free_trial');
  const stop = { done: false };
  const flooding = flood(base, flooder.key, paths, stop);
  const flooded = await victim(base, victimKey, seconds);
  stop.done = true;
  const floodStatuses = await flooding;
  console.log(`victim flooded: p50 ${flooded.p50} ms, p95 ${flooded.p95} ms (${flooded.n} searches, ${flooded.errors} not 200)`);
  console.log(`flooder's answers: ${JSON.stringify(floodStatuses)}; p95 ratio ${(flooded.p95 / alone.p95).toFixed(2)}x (target < 2x)`);
  const usage = cli(['usage', 'show', '--client', flooder.clientId]);
  return { alone, flooded, ratio: flooded.p95 / alone.p95, floodStatuses, flooderUsage: usage };
}

// --- main --------------------------------------------------------------------------------------

try {
  if (!opts.reuse) {
    await startFromNothing();
    mkdirSync(dir, { recursive: true });
    await ingest();
  }
  const runtime = await openRuntime(config, { name: 'bench-fairness' });
  const docs = (await runtime.opensearch.count({ index })).body.count;
  await runtime.close();
  const base = await startApi();
  const enterpriseKey = apiKey('enterprise').key;
  console.log(
    `bench:fairness on ${docs} certificates (${prefix}); load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (the machine may be shared)`,
  );
  const cpu = opts.only === 'flood' ? [] : await cpuPart(base, enterpriseKey);
  if (cpu.length > 0)
    console.log(`most engine CPU of one credit: ${Math.max(...cpu.map((r) => r.engineCpuMs as number))} ms (target <= 500 ms at 1M)`);
  if (opts.only !== 'cpu') {
    // The flooder sends the costliest answered call of each route, in turn.
    const paths = cpu.length > 0 ? cpu.map((r) => r.path as string) : (await expensiveCalls()).map((e) => e.candidates.at(-1)!);
    const result = await floodPart(base, enterpriseKey, paths);
    console.log(
      `SUMMARY ${JSON.stringify({ docs, cpu: cpu.map(({ route, path, engineCpuMs, netCpuMs }) => ({ route, path, engineCpuMs, netCpuMs })), ...result, loadavg: loadavg() })}`,
    );
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  if (!opts.keep && !opts.reuse) {
    const opensearch = createOpenSearch(config);
    await dropScratch({ opensearch }, config, prefix, dir);
    await opensearch.close();
  }
  await node?.stop();
}
