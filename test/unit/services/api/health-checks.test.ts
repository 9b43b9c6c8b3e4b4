import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCheck, runChecks } from '../../../../services/api/health.ts';

/**
 * The /healthz deadline on a fake clock: a dependency that never answers is "unavailable" at the
 * timeout, not before and not later. test/integration/services/api/routes/health/healthz.test.ts hangs real ones.
 */

const never = () => new Promise<void>(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('runCheck', () => {
  it('gives up on a check that never answers at the timeout, and not a millisecond before', async () => {
    let result: Awaited<ReturnType<typeof runCheck>> | undefined;
    void runCheck(never, 1000).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual({ ok: false, reason: 'no answer within 1000 ms' });
  });

  it('answers with the check when it comes first, with the first line of its error', async () => {
    expect(await runCheck(async () => undefined, 1000)).toEqual({ ok: true });
    expect(await runCheck(async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1\nmore')), 1000)).toEqual({
      ok: false,
      reason: 'connect ECONNREFUSED 127.0.0.1:1',
    });
    // Its timer is gone: nothing is left to fire.
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('runChecks', () => {
  it('runs the checks side by side: two hanging ones cost one timeout, not two', async () => {
    let answer: Awaited<ReturnType<typeof runChecks>> | undefined;
    void runChecks({ opensearch: never, redis: never, sqlite: async () => undefined }, 1000).then((a) => {
      answer = a;
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(answer).toEqual({
      healthy: false,
      results: { opensearch: 'unavailable', redis: 'unavailable', sqlite: 'ok' },
      failures: { opensearch: 'no answer within 1000 ms', redis: 'no answer within 1000 ms' },
    });
  });
});
