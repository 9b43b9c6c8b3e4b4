import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter, STORE_TIMEOUT_MS } from '../../../../../services/api/access/rate-limit.ts';

/**
 * The rate-limit store's deadline on a fake clock: a Redis that never answers lets the request
 * through unchecked at STORE_TIMEOUT_MS, counted. test/integration/services/api/access/redis-down.test.ts
 * pauses and stops a real Redis.
 */

const silent = pino({ level: 'silent' });
/** A Redis whose scripts never answer (paused, or a network that drops the packets). */
const hung = { evalsha: () => new Promise(() => undefined), eval: () => new Promise(() => undefined) } as unknown as Redis;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2030-06-01T12:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a rate-limit store that does not answer', () => {
  it('lets the request through unchecked at the store timeout, with the full window, and counts it', async () => {
    const limiter = createRateLimiter(hung, { keyPrefix: 't', logger: silent });
    let decision: Awaited<ReturnType<typeof limiter.hit>> | undefined;
    void limiter.hit('cli_a', 60, 'req_1').then((d) => {
      decision = d;
    });
    await vi.advanceTimersByTimeAsync(STORE_TIMEOUT_MS - 1);
    expect(decision).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(decision).toEqual({
      allowed: true,
      limit: 60,
      remaining: 60,
      resetAtMs: Date.parse('2030-06-01T12:01:01.000Z'),
      resetInMs: 60_000,
      checked: false,
    });
    expect(limiter.storeFailures).toBe(1);
  });
});
