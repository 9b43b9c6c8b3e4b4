// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessTestApp, openAccessTestApp, spawnAccessServer } from '../../../../helpers/access.ts';
import { childEnv } from '../../../../helpers/cli.ts';
import { until } from '../../../../helpers/until.ts';

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(async () => t.close());

const requestLines = (log: string) => log.split('\n').filter((l) => l.startsWith('{') && l.includes('"msg":"request"'));

describe('no raw key in any log line', () => {
  it('request logs of a real server mask ?api_key= and never print the key headers', async () => {
    const c = await t.client('developer');
    // development: request logging on (it is off under NODE_ENV=test); stderr is a pipe, so JSON lines.
    const { child, listening } = spawnAccessServer(
      childEnv(t.config, { NODE_ENV: 'development', LOG_LEVEL: 'info', KEY_HASH_SECRET: t.config.KEY_HASH_SECRET }),
      'pipe',
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const url = await listening;
      const statuses = [
        await fetch(`${url}/api/v1/probe?api_key=${c.key}&limit=2`),
        await fetch(`${url}/api/v1/probe?limit=2&api_key=${c.key}`, { headers: { authorization: `Bearer ${c.key}` } }),
        await fetch(`${url}/api/v1/probe?status=500`, { headers: { 'x-api-key': c.key } }),
        await fetch(`${url}/api/v1/probe`, { headers: { authorization: `Basic ${c.key}` } }),
      ].map((r) => r.status);
      expect(statuses).toEqual([401, 200, 500, 401]);
      // Each request's line is written as its answer goes out: wait for the four, not a fixed time.
      await until(() => requestLines(stderr).length >= 4, 'a log line for each of the four requests', 10_000);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    // One line per request, with the request id, status and time.
    const requests = requestLines(stderr);
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(requests[0]).toMatch(/"request_id":"req_[^"]+".*"statusCode":\d{3}/);
    expect(stderr).toContain('api_key=[redacted]');
    expect(stderr).not.toContain(c.key);
    expect(stderr).not.toContain(c.key.slice(9));
  });
});
