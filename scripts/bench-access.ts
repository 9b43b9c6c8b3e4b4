/**
 * Access-layer benchmark (a script, not a test): what authentication, the Redis rate limit and
 * the credit charge add to one request, on each control plane (PostgreSQL may add at most 1 ms
 * at p50 over SQLite). The same route (GET /counties/miami-dade, answered from the control
 * plane) is served by two apps, one on a SQLite file and one on a PostgreSQL database: under
 * /api/v1 with the access hook, and under /bench-off without it. Requests go one at a time, the
 * four variants in turn, so all see the same machine noise.
 *
 *   npm run bench:access -- --requests 5000 [--postgres postgres://user@host:5432/admin-db]
 *
 * Uses the running Redis (REDIS_URL), its own SQLite file, a PostgreSQL database of its own
 * (created on the --postgres server and dropped afterwards) and its own key prefix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { buildApp } from '../services/api/app.ts';
import { countiesRoutes } from '../services/api/routes/counties/route.ts';
import { createKey } from '../services/control/billing/api-keys.ts';
import { createClient, setClient } from '../services/control/billing/clients.ts';
import { type Config, loadConfig } from '../services/config.ts';
import { openRuntime, type Runtime } from '../services/process/runtime.ts';

const opts = new Command('bench-access')
  .option('--requests <n>', 'timed requests per variant', '5000')
  .option('--warmup <n>', 'untimed requests per variant first', '1000')
  .option(
    '--postgres <url>',
    'a database on the PostgreSQL server to create the benchmark database from',
    'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option('--json', 'print the result as JSON')
  .parse()
  .opts<{ requests: string; warmup: string; postgres: string; json?: boolean }>();

const dir = mkdtempSync(join(tmpdir(), 'bench-access-'));
const prefix = `bench-access-${process.pid}`;
const pgName = `bench_access_${process.pid}`;
const admin = new pg.Client({ connectionString: opts.postgres });
await admin.connect();
await admin.query(`CREATE DATABASE "${pgName}"`);
const pgUrl = new URL(opts.postgres);
pgUrl.pathname = `/${pgName}`;

const base = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_PATH: join(dir, 'taxcert.db') };
const configs: Record<'sqlite' | 'postgres', Config> = {
  sqlite: loadConfig({ ...base, INDEX_PREFIX: `${prefix}-s` }),
  postgres: loadConfig({ ...base, INDEX_PREFIX: `${prefix}-p`, DATABASE_URL: pgUrl.toString() }),
};

type Variant = { name: string; run: () => Promise<number> };

async function variants(runtime: Runtime, label: string): Promise<{ on: Variant; off: Variant; close: () => Promise<void> }> {
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
  const { raw } = await createKey(runtime.sql, {
    clientId: client.id,
    env: 'live',
    prefix: runtime.config.KEY_PREFIX,
    secret: runtime.config.KEY_HASH_SECRET,
  });
  const headers = { authorization: `Bearer ${raw}` };
  const one = (url: string) => async (): Promise<number> => {
    const start = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url, headers });
    const ns = Number(process.hrtime.bigint() - start);
    if (res.statusCode !== 200) throw new Error(`${label} ${url}: ${res.statusCode} ${res.body}`);
    return ns / 1e6;
  };
  return {
    on: { name: `${label} access on`, run: one('/api/v1/counties/miami-dade') },
    off: { name: `${label} access off`, run: one('/bench-off/counties/miami-dade') },
    close: async () => {
      const failures = app.access.rateLimiter.storeFailures;
      if (failures > 0) process.stderr.write(`${label}: ${failures} rate-limit store failures\n`);
      await app.close();
    },
  };
}

const runtimes: Runtime[] = [];
try {
  const sqliteRuntime = await openRuntime(configs.sqlite);
  runtimes.push(sqliteRuntime);
  const postgresRuntime = await openRuntime(configs.postgres);
  runtimes.push(postgresRuntime);
  const s = await variants(sqliteRuntime, 'sqlite');
  const p = await variants(postgresRuntime, 'postgres');
  const all = [s.on, s.off, p.on, p.off];
  const times = new Map<Variant, number[]>(all.map((v) => [v, []]));
  const warmup = Number(opts.warmup);
  const n = Number(opts.requests);
  for (let i = 0; i < warmup + n; i++) {
    for (const v of all) {
      const ms = await v.run();
      if (i >= warmup) times.get(v)!.push(ms);
    }
  }
  await s.close();
  await p.close();

  const pct = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((q / 100) * xs.length))]!;
  const summary = (v: Variant) => ({ p50: pct(times.get(v)!, 50), p99: pct(times.get(v)!, 99) });
  const result = {
    requests: n,
    sqlite: { access_on_ms: summary(s.on), access_off_ms: summary(s.off) },
    postgres: { access_on_ms: summary(p.on), access_off_ms: summary(p.off) },
    // What authentication and the charge cost on each engine: the access hook's own share.
    access_added_p50_ms: { sqlite: summary(s.on).p50 - summary(s.off).p50, postgres: summary(p.on).p50 - summary(p.off).p50 },
    // The target (at most 1 ms): the PostgreSQL path's authentication and charge over SQLite's, at p50.
    postgres_over_sqlite_p50_ms: summary(p.on).p50 - summary(p.off).p50 - (summary(s.on).p50 - summary(s.off).p50),
    // The whole request, route included (the route reads the county from the control plane too).
    request_p50_ms: { sqlite: summary(s.on).p50, postgres: summary(p.on).p50 },
    // The Redis and PostgreSQL round trips wait for their servers to be scheduled: on a crowded box that wait dominates.
    load_average_1m: Number(loadavg()[0]!.toFixed(2)),
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const f = (x: number) => x.toFixed(3).padStart(8);
    process.stdout.write(
      [
        `GET /counties/miami-dade, ${n} requests per variant, one at a time (inject, no network), the four variants in turn`,
        `                      p50 ms    p99 ms`,
        `sqlite   access on  ${f(result.sqlite.access_on_ms.p50)}  ${f(result.sqlite.access_on_ms.p99)}`,
        `sqlite   access off ${f(result.sqlite.access_off_ms.p50)}  ${f(result.sqlite.access_off_ms.p99)}`,
        `postgres access on  ${f(result.postgres.access_on_ms.p50)}  ${f(result.postgres.access_on_ms.p99)}`,
        `postgres access off ${f(result.postgres.access_off_ms.p50)}  ${f(result.postgres.access_off_ms.p99)}`,
        `access adds at p50: sqlite ${result.access_added_p50_ms.sqlite.toFixed(3)} ms, postgres ${result.access_added_p50_ms.postgres.toFixed(3)} ms`,
        `postgres over sqlite (authentication and charge, p50): ${result.postgres_over_sqlite_p50_ms.toFixed(3)} ms   (target: <= 1 ms)`,
        `load average (1 min) ${result.load_average_1m}`,
        '',
      ].join('\n'),
    );
  }
  for (const r of runtimes) {
    const keys = await r.redis.keys(`${r.config.INDEX_PREFIX}-rl:*`);
    if (keys.length > 0) await r.redis.del(...keys);
  }
} finally {
  for (const r of runtimes) await r.close();
  await admin.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}
