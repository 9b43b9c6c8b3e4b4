/**
 * Webhook delivery benchmark (a script, not a test). Appends events to the
 * change feed at a steady rate and lets a real worker process deliver them to 20 local HTTP
 * receivers: one slow (answers after --slow-ms), one failing half its requests (the first
 * request of each event is a 500, its retry a 200), one
 * down for --down-for-s seconds from --down-after-s, the rest healthy. Prints deliveries per
 * second, the lag from an event's recording to its first attempt (p50, p99) on the healthy
 * endpoints, the worker's RSS over time, and checks that once retries settle every receiver
 * got every event id it subscribes to, and nothing else.
 *
 *   npm run bench:webhooks                                   (100,000 events at 700/s)
 *   npm run bench:webhooks -- --profile /tmp/prof             (also a CPU profile of the worker)
 *   npm run bench:webhooks -- --events 20000 --rate 0        (all at once: raw capacity)
 *
 * Subscriptions are chosen to look like customers rather than to be easy: two firehoses (every
 * event), five investors following two or three of the big counties, four following kinds of
 * change across the state (tax deed applications and lands available; redemptions in one
 * county; cancellations and status moves; sales and coverage), nine following one smaller
 * county each. With the event mix below that is 2.87 deliveries per event: 287,037 for 100,000
 * events, about 2,000 a second at the default 700 events a second.
 *
 * Uses the running Redis and OpenSearch (the worker command makes its indices), its own
 * INDEX_PREFIX and SQLite file, all removed afterwards. The retry schedule is the short one
 * (1s,2s,4s,8s,15s,30s,60s), so the receiver that was down gets everything once it is back.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../services/config.ts';
import { createClient } from '../services/control/billing/clients.ts';
import { appendEvents, type EventInput, type EventType, publicEventId } from '../services/control/feed/events.ts';
import { dispatchCursor } from '../services/control/feed/webhook-dispatch.ts';
import { createEndpoint } from '../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../services/control/feed/webhook-secrets.ts';
import { inJsonArray } from '../services/control/db/sql.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { tearDownWebhookBench } from './lib/webhook-bench-teardown.ts';
import { shebangFlags } from './lib/stack-process.ts';

const bin = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));

const opts = new Command('bench-webhooks')
  .option('--events <n>', 'events appended', '100000')
  .option('--rate <n>', 'events appended per second (0: all at once)', '700')
  .option('--batch <n>', 'events per append transaction', '350')
  .option('--concurrency <n>', 'worker deliveries at once (WEBHOOK_CONCURRENCY; its default)', '128')
  .option('--slow-ms <ms>', 'how long the slow receiver takes to answer', '1000')
  .option('--down-after-s <s>', 'when the down receiver goes away', '10')
  .option('--down-for-s <s>', 'how long it stays away', '60')
  .option('--settle-timeout-s <s>', 'give up waiting for retries to settle after this long', '900')
  .option('--profile <dir>', 'write a CPU profile of the worker into this folder (node --cpu-prof)')
  .option('--json', 'print the result as JSON')
  .parse()
  .opts<{
    events: string;
    rate: string;
    batch: string;
    concurrency: string;
    slowMs: string;
    downAfterS: string;
    downForS: string;
    settleTimeoutS: string;
    profile?: string;
    json?: boolean;
  }>();

const EVENTS = Number(opts.events);
const RATE = Number(opts.rate);
const BATCH = Number(opts.batch);
const say = (line: string) => process.stderr.write(`${line}\n`);

/** A small seeded generator (mulberry32), so two runs append the same events. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let r = random() * total;
  for (const [value, w] of weighted) {
    r -= w;
    if (r < 0) return value;
  }
  return weighted.at(-1)![0];
}

// The mix of a day of ingests: mostly redemptions and field updates, a few deed applications.
const TYPE_MIX: [EventType, number][] = [
  ['certificate.redeemed', 45],
  ['certificate.updated', 20],
  ['certificate.created', 15],
  ['certificate.status_changed', 6],
  ['certificate.tax_deed_applied', 6],
  ['certificate.lands_available', 3],
  ['certificate.cancelled', 2],
  ['certificate_sale.status_changed', 1],
  ['certificate_sale.created', 1],
  ['county.coverage_changed', 0.5],
  ['certificates.loaded', 0.5],
];
// Big counties carry more certificates; every county appears.
const BIG: Record<string, number> = {
  'miami-dade': 14,
  broward: 10,
  'palm-beach': 8,
  hillsborough: 7,
  orange: 7,
  duval: 5,
  pinellas: 5,
  lee: 4,
  polk: 4,
  brevard: 3,
  volusia: 3,
};

interface Spec {
  name: string;
  types: EventType[] | null;
  counties: string[] | null;
  behaviour: 'healthy' | 'slow' | 'flaky' | 'down';
}

const SPECS: Spec[] = [
  { name: 'firehose-a', types: null, counties: null, behaviour: 'healthy' },
  { name: 'firehose-b', types: null, counties: null, behaviour: 'healthy' },
  { name: 'south-florida', types: null, counties: ['miami-dade', 'broward'], behaviour: 'healthy' },
  { name: 'palm-orange', types: null, counties: ['palm-beach', 'orange'], behaviour: 'down' },
  { name: 'tampa-bay', types: null, counties: ['hillsborough', 'pinellas'], behaviour: 'flaky' },
  { name: 'northeast-southwest', types: null, counties: ['duval', 'lee'], behaviour: 'healthy' },
  { name: 'central', types: null, counties: ['polk', 'brevard', 'volusia'], behaviour: 'healthy' },
  { name: 'deeds', types: ['certificate.tax_deed_applied', 'certificate.lands_available'], counties: null, behaviour: 'healthy' },
  { name: 'dade-redemptions', types: ['certificate.redeemed'], counties: ['miami-dade'], behaviour: 'healthy' },
  { name: 'status-moves', types: ['certificate.cancelled', 'certificate.status_changed'], counties: null, behaviour: 'healthy' },
  {
    name: 'sales-coverage',
    types: ['certificate_sale.created', 'certificate_sale.status_changed', 'county.coverage_changed', 'certificates.loaded'],
    counties: null,
    behaviour: 'healthy',
  },
  { name: 'alachua', types: null, counties: ['alachua'], behaviour: 'slow' },
  { name: 'leon', types: null, counties: ['leon'], behaviour: 'healthy' },
  { name: 'escambia', types: null, counties: ['escambia'], behaviour: 'healthy' },
  { name: 'sarasota', types: null, counties: ['sarasota'], behaviour: 'healthy' },
  { name: 'collier', types: null, counties: ['collier'], behaviour: 'healthy' },
  { name: 'marion', types: null, counties: ['marion'], behaviour: 'healthy' },
  { name: 'seminole', types: null, counties: ['seminole'], behaviour: 'healthy' },
  { name: 'osceola', types: null, counties: ['osceola'], behaviour: 'healthy' },
  { name: 'st-lucie', types: ['certificate.redeemed', 'certificate.tax_deed_applied'], counties: ['st-lucie'], behaviour: 'healthy' },
];

const matches = (s: Spec, e: EventInput) =>
  (s.types === null || s.types.includes(e.type)) && (s.counties === null || (e.countySlug !== null && s.counties.includes(e.countySlug)));

/** A certificate row about the size the API renders (about 700 bytes of JSON). */
function eventAt(n: number, random: () => number, counties: readonly (readonly [string, number])[]): EventInput {
  const type = pick(random, TYPE_MIX);
  const county = type === 'county.coverage_changed' || type.startsWith('certificate') ? pick(random, counties) : null;
  const year = 2019 + Math.floor(random() * 6);
  const face = Math.round(random() * 500_000) / 100;
  return {
    type,
    countySlug: county,
    data: {
      object: {
        id: `cert_${n.toString(16).padStart(20, '0')}`,
        certificate_number: `${year}-${String(n).padStart(6, '0')}`,
        county_slug: county,
        parcel_id: `${Math.floor(random() * 99)}-${Math.floor(random() * 9999)}-000-${n % 1000}`,
        tax_year: year,
        status: type === 'certificate.redeemed' ? 'redeemed' : 'sold',
        face_amount: face,
        interest_rate: Math.round(random() * 1800) / 100,
        holder_name: 'GULF COAST LIEN FUND II LLC',
        owner_name: 'SMITH JOHN & MARY',
        site_address_full: `${n % 9999} NW ${n % 200}TH AVE, SOMEWHERE, FL 33${String(n % 1000).padStart(3, '0')}`,
        sale_date: `${year + 1}-06-01`,
        redeemed_date: type === 'certificate.redeemed' ? '2026-11-20' : null,
        vendor: 'lienport',
        parcel_url: `https://parcels.taxcert.dev/api/v1/parcels/${county}/${n}`,
      },
      previous: type === 'certificate.created' ? {} : { status: 'sold', updated_at: '2026-11-01T00:00:00.000Z' },
    },
  };
}

interface ReceiverState {
  spec: Spec;
  server: Server;
  port: number;
  url: string;
  endpointId: string;
  verifier: Webhook | null;
  /** Times each event id was received with a 2xx. */
  seen: Map<string, number>;
  /** Event ids the flaky receiver has refused once. */
  tried: Set<string>;
  requests: number;
  verified: number;
  badSignatures: number;
}

/** First successful receipts per second since the start, all receivers together. */
const perSecond: number[] = [];
let clockStart = Date.now();

async function startReceiver(spec: Spec): Promise<ReceiverState> {
  const r = {
    spec,
    port: 0,
    url: '',
    endpointId: '',
    verifier: null,
    seen: new Map(),
    tried: new Set(),
    requests: 0,
    verified: 0,
    badSignatures: 0,
  } as unknown as ReceiverState;
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = r.requests++;
      const id = String(req.headers['webhook-id']);
      // Every 50th request is verified as a customer would; all of them would load the bench's CPU, not the worker's.
      if (n % 50 === 0 && r.verifier) {
        try {
          r.verifier.verify(Buffer.concat(chunks), req.headers as Record<string, string>);
          r.verified += 1;
        } catch {
          r.badSignatures += 1;
        }
      }
      const answer = (status: number) => {
        if (status < 300) {
          const times = r.seen.get(id) ?? 0;
          r.seen.set(id, times + 1);
          if (times === 0) {
            const second = Math.floor((Date.now() - clockStart) / 1000);
            perSecond[second] = (perSecond[second] ?? 0) + 1;
          }
        }
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status < 300 ? 'ok' : 'try later');
      };
      // Half its requests fail: the first of each event is a 500, the retry a 200.
      if (spec.behaviour === 'flaky') {
        const first = !r.tried.has(id);
        r.tried.add(id);
        answer(first ? 500 : 200);
      } else if (spec.behaviour === 'slow') setTimeout(() => answer(200), Number(opts.slowMs));
      else answer(200);
    });
  });
  r.server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.port = (r.server.address() as { port: number }).port;
  r.url = `http://127.0.0.1:${r.port}/webhooks/${spec.name}`;
  return r;
}

/** CPU seconds a process has used so far (user + system), from /proc (Linux; 100 ticks per second). */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

/** CPU seconds the Redis server has used (INFO cpu): all its clients, ours and anyone else's. */
async function redisCpuSeconds(redis: Awaited<ReturnType<typeof openRuntime>>['redis']): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_sys') + field('used_cpu_user');
}

function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

function sumSeconds(from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += perSecond[i] ?? 0;
  return sum;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
const prefix = `bench-wh-${process.pid}`;
const env = {
  ...process.env,
  NODE_ENV: 'development' as const,
  LOG_LEVEL: 'warn',
  DATABASE_PATH: join(dir, 'taxcert.db'),
  INDEX_PREFIX: prefix,
  WEBHOOK_RETRY_SCHEDULE: '1s,2s,4s,8s,15s,30s,60s',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_CONCURRENCY: opts.concurrency,
};
const config = loadConfig(env);
const runtime = await openRuntime(config, { name: 'bench' });
let worker: ChildProcess | undefined;
const receivers: ReceiverState[] = [];
try {
  const { sql } = runtime;
  const scalar = async (text: string) => Object.values((await sql.get<Record<string, number>>(text)) ?? {})[0] ?? 0;
  // Events, generated up front so appending them costs only the inserts.
  const random = seeded(2020);
  const counties = runtime.registry.counties.map((c) => [c.slug, BIG[c.slug] ?? 1] as const);
  const events = Array.from({ length: EVENTS }, (_, n) => eventAt(n, random, counties));
  const expectedPer = SPECS.map((s) => events.filter((e) => matches(s, e)).length);
  const expectedTotal = expectedPer.reduce((a, b) => a + b, 0);
  say(
    `bench-webhooks: ${EVENTS} events, ${expectedTotal} deliveries expected (${(expectedTotal / EVENTS).toFixed(2)} per event), rate ${RATE || 'all at once'}/s, concurrency ${opts.concurrency}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // Receivers and their endpoints, one client each (twenty customers), before any event.
  const box = createSecretBox(config.WEBHOOK_SECRET_KEY);
  for (const spec of SPECS) {
    const r = await startReceiver(spec);
    const client = await createClient(runtime.sql, { name: spec.name, plan: 'growth' });
    const made = await createEndpoint(sql, box, { clientId: client.id, url: r.url, types: spec.types, counties: spec.counties });
    r.verifier = new Webhook(made.secret);
    r.endpointId = made.endpoint.id;
    receivers.push(r);
  }

  // The worker as production runs it: its own process, the heap bounds of bin/taxcert.js.
  let workerLog = '';
  const workerArgs = ['worker', '--webhook-concurrency', opts.concurrency];
  const workerOptions: SpawnOptions = { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe'] };
  const child = opts.profile
    ? spawn(process.execPath, [...shebangFlags(), '--cpu-prof', '--cpu-prof-dir', opts.profile, bin, ...workerArgs], workerOptions)
    : spawn(bin, workerArgs, workerOptions);
  worker = child;
  child.stderr!.on('data', (d: Buffer) => {
    workerLog = (workerLog + d.toString()).slice(-20_000);
  });
  for (let i = 0; !workerLog.includes('worker waiting for jobs'); i++) {
    if (i > 600 || child.exitCode !== null) throw new Error(`the worker did not start:\n${workerLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  const started = Date.now();
  clockStart = started;
  const workerCpuBefore = cpuSecondsOf(child.pid!);
  const benchCpuBefore = process.cpuUsage();
  const redisCpuBefore = await redisCpuSeconds(runtime.redis);
  const rss: [number, number][] = [];
  const sampler = setInterval(() => {
    if (worker?.pid) rss.push([Math.round((Date.now() - started) / 1000), rssMbOf(worker.pid)]);
  }, 2000);
  const delivered = () => receivers.reduce((s, r) => s + r.seen.size, 0);
  const progress = setInterval(async () => {
    const pending = await scalar("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'");
    say(
      `  ${Math.round((Date.now() - started) / 1000)}s: ${delivered()}/${expectedTotal} delivered, ${pending} pending, worker ${rss.at(-1)?.[1] ?? '?'} MB`,
    );
  }, 10_000);

  // The receiver that goes away, and comes back.
  const down = receivers.find((r) => r.spec.behaviour === 'down')!;
  const downAt = setTimeout(() => {
    down.server.close();
    down.server.closeAllConnections();
    say(`  ${Math.round((Date.now() - started) / 1000)}s: ${down.spec.name} down`);
  }, Number(opts.downAfterS) * 1000);
  const upAt = setTimeout(
    () => {
      down.server.listen(down.port, '127.0.0.1', () => say(`  ${Math.round((Date.now() - started) / 1000)}s: ${down.spec.name} back`));
    },
    (Number(opts.downAfterS) + Number(opts.downForS)) * 1000,
  );

  // Append at the steady rate, in batches as an ingest step would.
  for (let i = 0; i < EVENTS; i += BATCH) {
    if (RATE > 0) {
      const due = started + (i / RATE) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    }
    await appendEvents(runtime.sql, events.slice(i, i + BATCH));
  }
  const appendedMs = Date.now() - started;
  say(`  appended ${EVENTS} events in ${(appendedMs / 1000).toFixed(1)} s`);

  // Settled: every event fanned out and no delivery pending or waiting to be queued (delivered or failed for good).
  const lastEventId = await scalar('SELECT max(id) FROM events');
  const deadline = Date.now() + Number(opts.settleTimeoutS) * 1000;
  const healthy = receivers.filter((r) => r.spec.behaviour === 'healthy');
  let healthyDoneMs: number | null = null;
  for (;;) {
    if (healthyDoneMs === null && healthy.every((r) => r.seen.size === expectedPer[receivers.indexOf(r)]))
      healthyDoneMs = Date.now() - started;
    // Two questions, each answered by its own partial index.
    const pending = await scalar("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'");
    const unqueued = await scalar('SELECT count(*) FROM webhook_deliveries WHERE enqueued = 0');
    if (pending === 0 && unqueued === 0 && (await dispatchCursor(sql)) >= lastEventId) break;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const settledMs = Date.now() - started;
  const workerCpu = cpuSecondsOf(child.pid!) - workerCpuBefore;
  const benchCpuUsage = process.cpuUsage(benchCpuBefore);
  const benchCpu = (benchCpuUsage.user + benchCpuUsage.system) / 1e6;
  const redisCpu = (await redisCpuSeconds(runtime.redis)) - redisCpuBefore;
  clearInterval(sampler);
  clearInterval(progress);
  clearTimeout(downAt);
  clearTimeout(upAt);

  // What each receiver got, against what it subscribes to.
  // The n-th event appended has id firstSeq + n + 1.
  const firstSeq = (await scalar('SELECT min(id) FROM events')) - 1;
  const perReceiver = receivers.map((r, i) => {
    const expected = new Set(events.flatMap((e, n) => (matches(r.spec, e) ? [publicEventId(firstSeq + n + 1)] : [])));
    const missing = [...expected].filter((id) => !r.seen.has(id)).length;
    const unexpected = [...r.seen.keys()].filter((id) => !expected.has(id)).length;
    const duplicates = [...r.seen.values()].reduce((s, c) => s + (c - 1), 0);
    return {
      name: r.spec.name,
      behaviour: r.spec.behaviour,
      expected: expectedPer[i]!,
      received: r.seen.size,
      missing,
      unexpected,
      duplicates,
      requests: r.requests,
      verified: r.verified,
      badSignatures: r.badSignatures,
    };
  });

  // Lag from recording to the first attempt, healthy endpoints only (the attempt log's own clock).
  const healthyIds = healthy.map((r) => r.endpointId);
  const lags = (
    await sql.all<{ s: string; c: string }>(
      `SELECT a.started_at AS s, ev.created_at AS c FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN events ev ON ev.id = d.event_id
       WHERE a.attempt = 1 AND a.generation = 0 AND ${inJsonArray(sql.dialect, 'd.endpoint_id', '?')}`,
      [JSON.stringify(healthyIds)],
    )
  )
    .map((r) => Date.parse(r.s) - Date.parse(r.c))
    .sort((a, b) => a - b);
  const attempts = await scalar('SELECT count(*) FROM webhook_attempts');
  // How long the healthy receivers' requests took, as the worker timed them (it decides what counts as slow).
  const durations = (
    await sql.all<{ duration_ms: number }>(
      `SELECT a.duration_ms FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE ${inJsonArray(sql.dialect, 'd.endpoint_id', '?')}`,
      [JSON.stringify(healthyIds)],
    )
  )
    .map((r) => r.duration_ms)
    .sort((a, b) => a - b);
  const statuses = Object.fromEntries(
    (await sql.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status')).map((r) => [
      r.status,
      r.n,
    ]),
  );
  const deliveredTotal = perReceiver.reduce((s, r) => s + r.received, 0);
  const rssValues = rss.map(([, mb]) => mb);
  const result = {
    events: EVENTS,
    rate: RATE,
    concurrency: Number(opts.concurrency),
    deliveries_expected: expectedTotal,
    deliveries_delivered: deliveredTotal,
    delivery_rows: statuses,
    attempts,
    append_seconds: Math.round(appendedMs / 100) / 10,
    healthy_caught_up_seconds: healthyDoneMs === null ? null : Math.round(healthyDoneMs / 100) / 10,
    settled_seconds: Math.round(settledMs / 100) / 10,
    // Deliveries (first 2xx per endpoint and event, every receiver) completed per second from the first
    // append until the healthy endpoints had everything; and the best 10 seconds of the run.
    deliveries_per_second:
      healthyDoneMs === null ? null : Math.round(sumSeconds(0, Math.ceil(healthyDoneMs / 1000)) / (healthyDoneMs / 1000)),
    peak_10s_deliveries_per_second: Math.round(
      Math.max(0, ...Array.from({ length: perSecond.length }, (_, i) => sumSeconds(i, i + 10) / 10)),
    ),
    attempts_per_second: Math.round(attempts / (settledMs / 1000)),
    // What one attempt cost in CPU, whatever the machine's load: the worker's, and this process's
    // (the receivers and the appends); Redis and the kernel's loopback are not in either.
    worker_cpu_us_per_attempt: Math.round((workerCpu * 1e6) / attempts),
    bench_cpu_us_per_attempt: Math.round((benchCpu * 1e6) / attempts),
    // The whole Redis server's: on a shared Redis this counts the other users too (an upper bound).
    redis_cpu_us_per_attempt: Math.round((redisCpu * 1e6) / attempts),
    healthy_request_ms: { p50: pct(durations, 50), p99: pct(durations, 99) },
    first_attempt_lag_ms: { p50: pct(lags, 50), p90: pct(lags, 90), p99: pct(lags, 99), max: lags.at(-1) ?? null, samples: lags.length },
    worker_rss_mb: {
      first: rssValues[0] ?? null,
      min: Math.min(...rssValues),
      max: Math.max(...rssValues),
      last: rssValues.at(-1) ?? null,
      series: rss.filter((_, i) => i % 5 === 0),
    },
    receivers: perReceiver,
    all_received: perReceiver.every((r) => r.missing === 0 && r.unexpected === 0),
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    say('');
    say(`deliveries: ${deliveredTotal}/${expectedTotal} delivered (${JSON.stringify(statuses)}), ${attempts} attempts`);
    say(
      `appended in ${result.append_seconds} s; healthy endpoints caught up at ${result.healthy_caught_up_seconds} s; all settled at ${result.settled_seconds} s`,
    );
    say(
      `deliveries/s: ${result.deliveries_per_second} (first append to healthy endpoints caught up), best 10 s: ${result.peak_10s_deliveries_per_second}; attempts/s over the whole run: ${result.attempts_per_second}`,
    );
    say(
      `CPU per attempt: worker ${result.worker_cpu_us_per_attempt} us, bench process (receivers, appends) ${result.bench_cpu_us_per_attempt} us, Redis server ${result.redis_cpu_us_per_attempt} us (all of its clients)`,
    );
    say(
      `first-attempt lag (healthy endpoints, ${lags.length} deliveries): p50 ${result.first_attempt_lag_ms.p50} ms, p90 ${result.first_attempt_lag_ms.p90} ms, p99 ${result.first_attempt_lag_ms.p99} ms, max ${result.first_attempt_lag_ms.max} ms`,
    );
    say(`request time, healthy receivers: p50 ${result.healthy_request_ms.p50} ms, p99 ${result.healthy_request_ms.p99} ms`);
    say(
      `worker RSS (MB): first ${result.worker_rss_mb.first}, min ${result.worker_rss_mb.min}, max ${result.worker_rss_mb.max}, last ${result.worker_rss_mb.last}; every 10 s: ${result.worker_rss_mb.series.map(([t, mb]) => `${t}s=${mb}`).join(' ')}`,
    );
    for (const r of perReceiver)
      say(
        `  ${r.name.padEnd(20)} ${r.behaviour.padEnd(8)} expected ${String(r.expected).padStart(6)} received ${String(r.received).padStart(6)} missing ${r.missing} unexpected ${r.unexpected} duplicates ${r.duplicates} requests ${r.requests} signatures ok ${r.verified} bad ${r.badSignatures}`,
      );
    say(
      result.all_received
        ? 'every receiver got every event id it subscribes to, and nothing else'
        : 'MISSING OR UNEXPECTED EVENTS: see above',
    );
    say(`load average at the end: ${result.load_average.join(' ')}`);
  }
  if (!result.all_received) process.exitCode = 1;
} finally {
  await tearDownWebhookBench(
    worker,
    receivers.map((r) => r.server),
    runtime,
    config,
    prefix,
    dir,
  );
}
