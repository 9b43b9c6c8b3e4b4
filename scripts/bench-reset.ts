/**
 * What an anonymous password-reset post costs the API process (a script, not a test): the CPU
 * (process.cpuUsage, every thread of the process, so argon2's native hashing counts) per POST
 * /account/reset carrying a well-formed token nobody was ever sent, and per post carrying a
 * malformed one, through app.inject on the real site (Redis, a SQLite file of its own). Each
 * made-up-token post comes from its own client address, as a flood spread over many addresses
 * would, so the per-address throttle does not hide the cost of the path itself; a last run
 * sends them all from one address, which the throttle answers.
 *
 *   npx tsx scripts/bench-reset.ts [--requests 200] [--json]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../services/config.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { buildSite } from '../services/web/site.ts';

const opts = new Command('bench-reset')
  .option('--requests <n>', 'timed posts per kind', '200')
  .option('--json', 'print the result as JSON')
  .parse()
  .opts<{ requests: string; json?: boolean }>();
const n = Number(opts.requests);

const dir = mkdtempSync(join(tmpdir(), 'bench-reset-'));
const prefix = `bench-reset-${process.pid}`;
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  INDEX_PREFIX: prefix,
  DATABASE_PATH: join(dir, 'taxcert.db'),
});
const runtime = await openRuntime(config);
const app = await buildSite(runtime);
await app.ready();

// One form page gives the CSRF cookie and its token; every post presents them.
const shown = await app.inject({ method: 'GET', url: '/account/reset' });
const csrf = /name="_csrf" value="([^"]+)"/.exec(shown.body)?.[1];
const cookie = shown.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
if (!csrf) throw new Error('no CSRF token on the reset page');

let addresses = 0;
const nextAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

async function post(token: string, remoteAddress: string): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/account/reset',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf!, token, password: 'a long enough new passphrase' }).toString(),
    remoteAddress,
  });
  return res.statusCode;
}

async function measure(name: string, token: () => string, address: () => string) {
  for (let i = 0; i < 10; i++) await post(token(), address());
  const statuses = new Map<number, number>();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const status = await post(token(), address());
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const used = process.cpuUsage(cpu);
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  return {
    name,
    requests: n,
    cpu_ms_per_request: Math.round(((used.user + used.system) / 1000 / n) * 100) / 100,
    wall_ms_per_request: Math.round((wallMs / n) * 100) / 100,
    statuses: Object.fromEntries(statuses),
  };
}

const madeUp = () => randomBytes(32).toString('base64url');
const results = [
  await measure('well-formed made-up token, a new address each', madeUp, nextAddress),
  await measure('malformed token, a new address each', () => 'short', nextAddress),
  await measure('well-formed made-up token, one address', madeUp, () => '192.0.2.1'),
];

await app.close();
const keys = await runtime.redis.keys(`${prefix}-*`);
if (keys.length > 0) await runtime.redis.del(...keys);
await runtime.close();
rmSync(dir, { recursive: true, force: true });

if (opts.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
else
  for (const r of results)
    process.stdout.write(
      `${r.name}: ${r.cpu_ms_per_request} ms CPU, ${r.wall_ms_per_request} ms wall per request (${JSON.stringify(r.statuses)})\n`,
    );
