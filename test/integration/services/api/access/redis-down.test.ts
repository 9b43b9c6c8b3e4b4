// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TIMEOUT_MS } from '../../../../../services/api/access/rate-limit.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';
import { type OwnRedis, startOwnRedis } from '../../../../helpers/own-redis.ts';

let redis: OwnRedis;
let t: AccessTestApp;
beforeAll(async () => {
  redis = await startOwnRedis();
  t = await openAccessTestApp(import.meta.url, { REDIS_URL: redis.url });
});
afterAll(async () => {
  redis.resume();
  await t.close();
  await redis.stop();
});

/**
 * A real-time bound, because not waiting for Redis is the behaviour: ioredis alone would hold the
 * command for as long as it reconnects. The limiter gives up at STORE_TIMEOUT_MS (timed on a fake
 * clock in test/unit/services/api/access/rate-limit-store.test.ts); 1.5 s more is room for a busy machine.
 */
const PROMPT_MS = STORE_TIMEOUT_MS + 1_500;

const timed = async (key: string) => {
  const start = Date.now();
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/probe', headers: bearer(key) });
  return { res, ms: Date.now() - start };
};

describe('the rate-limit store does not answer (spec 8.2)', () => {
  it('paused Redis: requests still answer 200 within about a second, are charged, and are counted', async () => {
    const c = await t.client('developer');
    expect((await timed(c.key)).res.statusCode).toBe(200);
    const failuresBefore = t.app.access.rateLimiter.storeFailures;
    redis.pause();
    try {
      const answers = await Promise.all([timed(c.key), timed(c.key), timed(c.key)]);
      for (const { res, ms } of answers) {
        expect(res.statusCode).toBe(200);
        expect(ms).toBeLessThan(PROMPT_MS);
        expect(res.headers['x-ratelimit-limit']).toBe('60');
      }
    } finally {
      redis.resume();
    }
    const events = (await t.runtime.sql.get<{ n: number }>('SELECT sum(events) AS n FROM usage_counts WHERE client_id = ?', [
      c.client.id,
    ]))!;
    expect(events.n).toBe(4);
    expect(t.app.access.rateLimiter.storeFailures - failuresBefore).toBe(3);
  });

  it('stopped Redis: requests still answer within about a second', async () => {
    const c = await t.client('pro');
    const failuresBefore = t.app.access.rateLimiter.storeFailures;
    await redis.stop();
    for (let i = 0; i < 3; i++) {
      const { res, ms } = await timed(c.key);
      expect(res.statusCode).toBe(200);
      expect(ms).toBeLessThan(PROMPT_MS);
    }
    expect(t.app.access.rateLimiter.storeFailures - failuresBefore).toBe(3);
  });
});
