// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(async () => t.close());

const get = (key: string, url = '/api/v1/probe') => t.app.inject({ method: 'GET', url, headers: bearer(key) });
const events = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>('SELECT coalesce(sum(events), 0) AS n FROM usage_counts WHERE client_id = ?', [clientId]))!.n;

describe('per-minute sliding window (spec 8.2, 8.6)', () => {
  it('the request after the plan RPM inside a minute is a 429 with Retry-After', async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { rpm: 5 });
    for (let i = 0; i < 5; i++) {
      const res = await get(c.key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const limited = await get(c.key);
    expect(limited.statusCode).toBe(429);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited.json().error).toMatchObject({ code: 'rate_limited', message: `Rate limit exceeded. Retry after ${retry} seconds.` });
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // Unix seconds on a 429 too, and the RateLimit field agrees with Retry-After.
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    expect(limited.headers.ratelimit).toBe(`"default";r=0;t=${retry}`);
    // The usage route is rate-limited as well (it is free, not unlimited).
    expect((await get(c.key, '/api/v1/account/usage')).statusCode).toBe(429);
    // 429s cost nothing.
    expect(await events(c.client.id)).toBe(5);
  });

  it('recovers once its oldest request ages out: a client that waits Retry-After gets through', async () => {
    // The same script on a 3-second window (RATE_LIMIT_WINDOW_MS, tests only), so recovery is
    // seen without waiting out a minute. The wait is real: the window runs on Redis's clock.
    const short = await openAccessTestApp(import.meta.url, { RATE_LIMIT_WINDOW_MS: '3000' });
    try {
      const c = await short.client('developer');
      await setClient(short.runtime.sql, c.client.id, { rpm: 2 });
      const hit = () => short.app.inject({ method: 'GET', url: '/api/v1/probe', headers: bearer(c.key) });
      expect((await hit()).statusCode).toBe(200);
      expect((await hit()).statusCode).toBe(200);
      const limited = await hit();
      expect(limited.statusCode).toBe(429);
      const retry = Number(limited.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(3);
      await new Promise((r) => setTimeout(r, retry * 1000));
      expect((await hit()).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('one window per client: all keys of the client draw on it', async () => {
    const c = await t.client('developer');
    const second = await t.key(c.client.id);
    const test = await t.key(c.client.id, 'test');
    await setClient(t.runtime.sql, c.client.id, { rpm: 3 });
    expect((await get(c.key)).statusCode).toBe(200);
    expect((await get(second.key)).statusCode).toBe(200);
    expect((await get(test.key)).statusCode).toBe(200);
    expect((await get(second.key)).statusCode).toBe(429);
    // Another client is untouched.
    const other = await t.client('developer');
    expect((await get(other.key)).statusCode).toBe(200);
  });
});
