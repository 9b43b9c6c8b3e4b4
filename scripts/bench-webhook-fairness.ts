/**
 * Webhook fairness benchmark (a script, not a test): how long another client's delivery waits
 * while one client has every endpoint pointed at a receiver that accepts the connection and
 * never answers. The hung client has 16 endpoints (the most a client may have) and asks for
 * 192 single-event replays (12 old events to each endpoint), as the account page's Replay
 * button would; the other client has one healthy endpoint. A real worker process
 * (`taxcert worker`, WEBHOOK_CONCURRENCY 128, WEBHOOK_TIMEOUT_MS 10 s, the default poll) sends
 * them all.
 *
 *   npm run bench:webhooks:fairness
 *   npm run bench:webhooks:fairness -- --samples 20 --json
 *
 * Prints the other client's delay (from just before its event is appended to its receiver
 * reading the request) first with nothing else queued (the baseline), then while the hung
 * client's requests are open: p50 and max of --samples events, one after the other a second
 * apart; and how many requests the hung receiver held open at most, and how many replays the
 * control plane took or refused.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { loadConfig } from '../services/config.ts';
import { createClient } from '../services/control/billing/clients.ts';
import { appendEvents, type EventInput, publicEventId } from '../services/control/feed/events.ts';
import { replay } from '../services/control/feed/webhook-deliveries.ts';
import { createEndpoint, MAX_ENDPOINTS_PER_CLIENT } from '../services/control/feed/webhook-endpoints.ts';
import { ReplayLimitError } from '../services/control/feed/webhook-replay-budget.ts';
import { createSecretBox } from '../services/control/feed/webhook-secrets.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { tearDownWebhookBench } from './lib/webhook-bench-teardown.ts';

const bin = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));

const opts = new Command('bench-webhook-fairness')
  .option('--samples <n>', "the other client's events sent while the hung client holds its requests", '10')
  .option('--baseline <n>', "the other client's events sent first, with nothing else queued", '5')
  .option('--replays-per-endpoint <n>', 'old events replayed to each hung endpoint', '12')
  .option('--json', 'print the result as JSON')
  .parse()
  .opts<{ samples: string; baseline: string; replaysPerEndpoint: string; json?: boolean }>();

const say = (line: string) => process.stderr.write(`${line}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The hung client's receiver: reads each request and never answers it. */
function hungReceiver() {
  const state = { open: 0, maxOpen: 0, requests: 0, server: null as unknown as Server };
  state.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests += 1;
    state.open += 1;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    req.resume();
    // The request's own close comes once its body is read; the answer's, when the sender gives up.
    res.on('close', () => {
      state.open -= 1;
    });
  });
  return state;
}

/** The other client's receiver: answers at once and notes when each event id arrived. */
function healthyReceiver() {
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const server = createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (!arrived.has(id)) arrived.set(id, Date.now());
    waiters.get(id)?.();
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  const arrival = (id: string, timeoutMs: number) =>
    new Promise<number | null>((resolve) => {
      if (arrived.has(id)) return resolve(arrived.get(id)!);
      const timer = setTimeout(() => resolve(null), timeoutMs);
      waiters.set(id, () => {
        clearTimeout(timer);
        resolve(arrived.get(id)!);
      });
    });
  return { server, arrival };
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
};

const dir = mkdtempSync(join(tmpdir(), 'bench-webhook-fairness-'));
const prefix = `bench-whf-${process.pid}`;
const env = {
  ...process.env,
  NODE_ENV: 'development' as const,
  LOG_LEVEL: 'warn',
  DATABASE_PATH: join(dir, 'taxcert.db'),
  INDEX_PREFIX: prefix,
  WEBHOOK_CONCURRENCY: '128',
};
const config = loadConfig(env);
const runtime = await openRuntime(config, { name: 'bench' });
const hung = hungReceiver();
const healthy = healthyReceiver();
let worker: ChildProcess | undefined;
try {
  const { sql } = runtime;
  const hungPort = await listen(hung.server);
  const healthyPort = await listen(healthy.server);
  const box = createSecretBox(config.WEBHOOK_SECRET_KEY);
  say(
    `bench-webhook-fairness: concurrency ${config.WEBHOOK_CONCURRENCY}, timeout ${config.WEBHOOK_TIMEOUT_MS} ms, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // The hung client's old events, recorded before its endpoints exist: only a replay sends them.
  const old: EventInput[] = Array.from({ length: Number(opts.replaysPerEndpoint) }, (_, n) => ({
    type: 'certificate.redeemed',
    countySlug: 'leon',
    data: { object: { id: `old_${n}` }, previous: {} },
  }));
  const oldIds = await appendEvents(sql, old);
  const hungClient = await createClient(sql, { name: 'hung', plan: 'growth' });
  const hungEndpoints = [];
  for (let i = 0; i < MAX_ENDPOINTS_PER_CLIENT; i++)
    hungEndpoints.push(
      (
        await createEndpoint(sql, box, {
          clientId: hungClient.id,
          url: `http://127.0.0.1:${hungPort}/hook/${i}`,
          types: ['certificate.redeemed'],
          counties: null,
        })
      ).endpoint,
    );
  const otherClient = await createClient(sql, { name: 'other', plan: 'growth' });
  await createEndpoint(sql, box, {
    clientId: otherClient.id,
    url: `http://127.0.0.1:${healthyPort}/hook`,
    types: ['certificate.created'],
    counties: null,
  });

  let log = '';
  worker = spawn(bin, ['worker', '--webhook-concurrency', '128'], {
    env: { ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  worker.stderr!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-20_000);
  });
  for (let i = 0; !log.includes('worker waiting for jobs'); i++) {
    if (i > 600 || worker.exitCode !== null) throw new Error(`the worker did not start:\n${log}`);
    await sleep(100);
  }

  /** One event for the other client: ms from just before it is appended to its receiver reading it. */
  let n = 0;
  const otherDelay = async () => {
    const started = Date.now();
    const [id] = await appendEvents(sql, [
      { type: 'certificate.created', countySlug: 'leon', data: { object: { id: `other_${n++}` }, previous: {} } },
    ]);
    const at = await healthy.arrival(publicEventId(id!), 60_000);
    return at === null ? Number.POSITIVE_INFINITY : at - started;
  };
  const series = async (count: number) => {
    const delays: number[] = [];
    for (let i = 0; i < count; i++) {
      delays.push(await otherDelay());
      await sleep(1000);
    }
    return delays;
  };

  const baseline = await series(Number(opts.baseline));
  say(`  baseline (nothing else queued): ${baseline.join(', ')} ms`);

  // The hung client's replays, as fast as the control plane takes them.
  let accepted = 0;
  let refused = 0;
  const REPLAYS = { perMinute: config.WEBHOOK_REPLAYS_PER_MINUTE };
  for (const endpoint of hungEndpoints)
    for (const eventId of oldIds) {
      try {
        accepted += (await replay(sql, endpoint, { eventId }, REPLAYS)) > 0 ? 1 : 0;
      } catch (err) {
        // Past the client's replay budget: what the account page answers with a 429.
        if (!(err instanceof ReplayLimitError)) throw err;
        refused += 1;
      }
    }
  say(`  replays: ${accepted} queued, ${refused} refused`);
  // The hung requests are open once the receiver holds at least a client's share (16, or all
  // the replays taken if fewer) and the count stays put for a second.
  const share = Math.min(16, accepted);
  for (let i = 0, last = -1, steady = 0; i < 150 && steady < 5; i++) {
    await sleep(200);
    steady = hung.open >= share && hung.open === last ? steady + 1 : 0;
    last = hung.open;
  }
  say(`  hung receiver holds ${hung.open} requests open`);
  const underLoad = await series(Number(opts.samples));
  say(`  while hung: ${underLoad.join(', ')} ms`);

  const sorted = [...underLoad].sort((a, b) => a - b);
  const sortedBase = [...baseline].sort((a, b) => a - b);
  const result = {
    concurrency: config.WEBHOOK_CONCURRENCY,
    timeout_ms: config.WEBHOOK_TIMEOUT_MS,
    hung_endpoints: hungEndpoints.length,
    replays_requested: hungEndpoints.length * oldIds.length,
    replays_queued: accepted,
    replays_refused: refused,
    hung_max_open: hung.maxOpen,
    baseline_ms: { p50: pct(sortedBase, 50), max: sortedBase.at(-1) ?? null, samples: baseline },
    while_hung_ms: { p50: pct(sorted, 50), max: sorted.at(-1) ?? null, samples: underLoad },
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    say('');
    say(`other client's delay, baseline: p50 ${result.baseline_ms.p50} ms, max ${result.baseline_ms.max} ms`);
    say(`other client's delay, hung client holding requests: p50 ${result.while_hung_ms.p50} ms, max ${result.while_hung_ms.max} ms`);
    say(
      `hung receiver: at most ${hung.maxOpen} requests open at once (${hung.requests} in all); replays ${accepted} queued, ${refused} refused of ${result.replays_requested}`,
    );
    say(`load average at the end: ${result.load_average.join(' ')}`);
  }
} finally {
  await tearDownWebhookBench(worker, [hung.server, healthy.server], runtime, config, prefix, dir);
}
