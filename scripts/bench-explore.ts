/**
 * bench:explore — the explorer (/account/explore) through a real browser on the demo stack
 * (`taxcert start`, its own engine node, Redis keys and SQLite file under bench-out/explore):
 *   - first paint of a search page (Navigation Timing and the paint entries), target < 500 ms;
 *   - each results page's server time (requestStart to responseEnd of the document) against the
 *     API's own time for the same parameters (the same search over HTTP with the demo key, timed
 *     the same way), target page <= API + 50 ms. A first page also draws three charts: its
 *     server time is set against the search and the three analytics calls the API needs for them.
 * Medians of RUNS visits each, after one warm-up visit. The figures depend on the machine's load.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTrialAccount } from '../services/control/accounts/accounts.ts';
import { hashPassword } from '../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../services/control/accounts/users.ts';
import { ensureDemoKey } from '../services/control/billing/demo-key.ts';
import { setClient } from '../services/control/billing/clients.ts';
import { openDatabase } from '../services/control/db/db.ts';
import { loadConfig } from '../services/config.ts';
import { Redis } from 'ioredis';
import { chromium } from 'playwright-core';
import { freePort } from './lib/free-port.ts';
import { startTaxcert } from './lib/stack-process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const FIRST_PAINT_TARGET_MS = 500;
const OVER_API_TARGET_MS = 50;
const DIR = resolve('bench-out/explore');
const DB = resolve(DIR, 'taxcert.db');

/** Searches of the demo set: the whole market, a county, a narrow scope, free text, and deep pages. */
const SEARCHES = [
  { name: 'whole market', query: '' },
  { name: 'one county', query: 'county=miami-dade' },
  { name: 'facets and ranges', query: 'county=lee,miami-dade&status=sold&face_min=500&rate_max=12' },
  { name: 'free text', query: 'query=smith&sort=face_desc' },
  { name: 'page 2', query: 'county=miami-dade&offset=25' },
  { name: 'deep page', query: 'offset=5000&limit=25' },
];

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

// A clean stack each run: its own engine node (a free port, so a new data folder) loads the demo set anyway.
rmSync(DIR, { recursive: true, force: true });
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'development',
  INDEX_PREFIX: 'bench-explore',
  DATABASE_PATH: DB,
  OPENSEARCH_PORT: String(await freePort()),
  LOG_LEVEL: 'warn',
};
delete env.OPENSEARCH_URL;
process.stderr.write('bench:explore: starting the demo stack (engine node, demo data)...\n');
const stack = await startTaxcert(['start'], { env, cwd: DIR, logFile: resolve(DIR, 'stack.log'), api: false });
try {
  for (let i = 0; ; i++) {
    const up = await fetch(`${stack.url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    if (stack.child.exitCode !== null || i > 1200) throw new Error(`the stack did not start; see ${DIR}/stack.log`);
    await new Promise((r) => setTimeout(r, 500));
  }

  // An analyst on a plan with credits to spare, and the demo key for the API's side.
  const config = loadConfig(env);
  const sql = await openDatabase({ DATABASE_PATH: DB, NODE_ENV: 'development' });
  const email = `bench-${Date.now()}@example.com`;
  const password = 'a long benchmark passphrase';
  const made = await createTrialAccount(sql, { organisation: 'Bench', email, passwordHash: await hashPassword(password), now: new Date() });
  await markEmailVerified(sql, made.user.id, new Date());
  await setClient(sql, made.client.id, { plan: 'growth' });
  const { key } = await ensureDemoKey(sql, { DATABASE_PATH: DB, KEY_PREFIX: config.KEY_PREFIX, KEY_HASH_SECRET: config.KEY_HASH_SECRET });
  await sql.close();

  // Debian's Chromium, as the browser tests use; its sandbox refuses to run as root (containers).
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--disable-gpu', '--no-first-run', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.url}/account/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/account$/);

  /** One visit: the document's server time and first paint, from the browser's own timings. */
  const visit = async (url: string) => {
    await page.goto(url, { waitUntil: 'load' });
    // The paint entries may land after the load event on a busy machine: waited for, not assumed.
    return page.evaluate<{ server: number; paint: number; status: number }>(`new Promise((resolve) => {
      const nav = performance.getEntriesByType('navigation')[0];
      const done = (paint) => resolve({ server: nav.responseEnd - nav.requestStart, paint, status: nav.responseStatus ?? 200 });
      new PerformanceObserver((list) => {
        const p = list.getEntries().find((e) => e.name === 'first-contentful-paint') ?? list.getEntries()[0];
        if (p) done(p.startTime);
      }).observe({ type: 'paint', buffered: true });
      setTimeout(() => done(NaN), 5000);
    })`);
  };
  /** The same request to the API, timed from the request's start to its body's end. */
  const apiTime = async (path: string) => {
    const t0 = performance.now();
    const res = await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return performance.now() - t0;
  };
  const pick = (query: string, names: string[]) => {
    const p = new URLSearchParams(query);
    return new URLSearchParams([...p].filter(([n]) => names.includes(n))).toString();
  };

  const lines: string[] = [];
  for (const s of SEARCHES) {
    const pageUrl = `${stack.url}/account/explore${s.query ? `?${s.query}` : ''}`;
    const facets = 'facets=county,status,tax_year,vendor,redeemed';
    const searchPath = `/api/v1/certificates/search?${s.query ? `${s.query}&` : ''}${facets}`;
    const first = !/offset=[1-9]/.test(s.query);
    const chartPaths = first
      ? [
          `/api/v1/analytics/bid-rates?${pick(s.query, ['county', 'tax_year', 'vendor'])}`,
          `/api/v1/analytics/redemption-curve?${pick(s.query, ['county', 'tax_year', 'vendor', 'face_min', 'face_max', 'rate_min', 'rate_max'])}`,
          `/api/v1/analytics/expected-yield?${pick(s.query, ['county', 'tax_year', 'vendor', 'face_min', 'face_max', 'rate_min', 'rate_max'])}`,
        ]
      : [];
    await visit(pageUrl);
    await apiTime(searchPath);
    const servers: number[] = [];
    const paints: number[] = [];
    const apis: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const v = await visit(pageUrl);
      if (v.status !== 200) throw new Error(`${pageUrl}: ${v.status}`);
      servers.push(v.server);
      paints.push(v.paint);
      let api = await apiTime(searchPath);
      for (const c of chartPaths) api += await apiTime(c);
      apis.push(api);
    }
    const server = median(servers);
    const api = median(apis);
    const paint = median(paints);
    lines.push(
      `${s.name.padEnd(18)} first paint ${paint.toFixed(0).padStart(5)} ms (${paint < FIRST_PAINT_TARGET_MS ? 'met' : 'MISSED'})  ` +
        `page ${server.toFixed(0).padStart(5)} ms  API ${api.toFixed(0).padStart(5)} ms (${first ? 'search + 3 charts' : 'search'})  ` +
        `over API ${(server - api).toFixed(0).padStart(4)} ms (${server <= api + OVER_API_TARGET_MS ? 'met' : 'MISSED'})`,
    );
    process.stderr.write(`${lines.at(-1)}\n`);
  }
  await browser.close();
  process.stdout.write(`bench:explore, medians of ${RUNS} visits at 1280 px:\n${lines.join('\n')}\n`);
} finally {
  await stack.stop();
  // What the run leaves outside its folder: the engine node's data and the stack's Redis keys.
  rmSync(resolve(`.cache/opensearch/node-${env.OPENSEARCH_PORT}`), { recursive: true, force: true });
  const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${env.INDEX_PREFIX}*`, count: 1000 })) keys.push(...(batch as string[]));
  for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  await redis.quit();
}
