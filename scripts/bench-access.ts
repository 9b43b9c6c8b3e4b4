/**
 * Access-layer benchmark (a script, not a test): what authentication, the Redis
 * rate limit and the SQLite credit charge add to one request. The same route
 * (GET /counties/miami-dade, answered from SQLite) is served twice by one app:
 * under /api/v1 with the access hook, and under /bench-off without it. Requests
 * alternate between the two, one at a time, so both see the same machine noise.
 *
 *   npm run bench:access -- --requests 5000
 *
 * Uses the running Redis (REDIS_URL) and its own SQLite file and key prefix, removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { buildApp } from '../services/api/app.ts';
import { countiesRoutes } from '../services/api/routes/counties/route.ts';
import { createKey } from '../services/control/api-keys.ts';
import { createClient, setClient } from '../services/control/clients.ts';
import { loadConfig } from '../services/config.ts';
import { openRuntime } from '../services/runtime.ts';

const opts = new Command('bench-access')
  .option('--requests <n>', 'timed requests per variant', '5000')
  .option('--warmup <n>', 'untimed requests per variant first', '1000')
  .option('--json', 'print the result as JSON')
  .parse()
  .opts<{ requests: string; warmup: string; json?: boolean }>();

const dir = mkdtempSync(join(tmpdir(), 'bench-access-'));
const prefix = `bench-access-${process.pid}`;
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_PATH: join(dir, 'taxcert.db'),
  INDEX_PREFIX: prefix,
});
const runtime = await openRuntime(config);
try {
  const app = await buildApp(runtime);
  await app.register(
    async (off) => {
      await off.register(countiesRoutes(runtime));
    },
    { prefix: '/bench-off' },
  );
  await app.ready();

  const client = await createClient(runtime.sql, { name: 'bench', plan: 'enterprise' });
  // A window the benchmark cannot fill: the limiter still runs its script on every request.
  await setClient(runtime.sql, client.id, { rpm: 1_000_000_000 });
  const { raw } = await createKey(runtime.sql, { clientId: client.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET });
  const headers = { authorization: `Bearer ${raw}` };

  const one = async (url: string): Promise<number> => {
    const start = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url, headers });
    const ns = Number(process.hrtime.bigint() - start);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return ns / 1e6;
  };
  const on: number[] = [];
  const off: number[] = [];
  const warmup = Number(opts.warmup);
  const n = Number(opts.requests);
  for (let i = 0; i < warmup + n; i++) {
    const a = await one('/api/v1/counties/miami-dade');
    const b = await one('/bench-off/counties/miami-dade');
    if (i >= warmup) {
      on.push(a);
      off.push(b);
    }
  }
  const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
  const result = {
    requests: n,
    access_on_ms: { p50: pct(on, 50), p99: pct(on, 99) },
    access_off_ms: { p50: pct(off, 50), p99: pct(off, 99) },
    added_ms: { p50: pct(on, 50) - pct(off, 50), p99: pct(on, 99) - pct(off, 99) },
    rate_limit_store_failures: app.access.rateLimiter.storeFailures,
    // The Redis round trip waits for redis-server to be scheduled: on a crowded box that wait, not our code, dominates.
    load_average_1m: Number(loadavg()[0]!.toFixed(2)),
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const f = (x: number) => x.toFixed(3).padStart(8);
    process.stdout.write(
      [
        `GET /counties/miami-dade, ${n} requests per variant, one at a time (inject, no network)`,
        `                 p50 ms    p99 ms`,
        `access on     ${f(result.access_on_ms.p50)}  ${f(result.access_on_ms.p99)}`,
        `access off    ${f(result.access_off_ms.p50)}  ${f(result.access_off_ms.p99)}`,
        `added         ${f(result.added_ms.p50)}  ${f(result.added_ms.p99)}   (target: < 0.5 ms at p50)`,
        `rate-limit store failures: ${result.rate_limit_store_failures}; load average (1 min) ${result.load_average_1m}`,
        '',
      ].join('\n'),
    );
  }
  await app.close();
  const keys = await runtime.redis.keys(`${prefix}-rl:*`);
  if (keys.length > 0) await runtime.redis.del(...keys);
} finally {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
}
