import { describe, expect, it } from 'vitest';
import {
  isRetryableRefusal,
  isRetryableStatus,
  parseRetryAfter,
  RETRY_DEFAULTS,
  retryDelay,
} from '../../../../clients/typescript/src/retry.ts';

describe('the client retry rules', () => {
  it('retries request timeouts, 429 and 5xx, nothing else', () => {
    expect([408, 429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 410, 413].some(isRetryableStatus)).toBe(false);
  });

  it('retries a write whose key its own earlier attempt still holds, not one used for another request', () => {
    expect(isRetryableRefusal(409, 'idempotency_conflict', { idempotency_key: 'k', reason: 'in_progress' })).toBe(true);
    expect(isRetryableRefusal(409, 'idempotency_conflict', { idempotency_key: 'k', reason: 'other_request' })).toBe(false);
    expect(isRetryableRefusal(503, 'service_unavailable', undefined)).toBe(true);
    expect(isRetryableRefusal(404, 'not_found', undefined)).toBe(false);
  });

  it('reads Retry-After as delta seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-29T02:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 02:00:30 GMT', now)).toBe(30_000);
    // A date already past means now, not a negative wait.
    expect(parseRetryAfter('Sun, 29 Nov 2026 01:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });

  it('never waits less than Retry-After, and backs off exponentially with jitter without one', () => {
    for (const r of [0, 0.5, 0.999]) {
      const random = () => r;
      expect(retryDelay(0, 2000, RETRY_DEFAULTS, random)).toBeGreaterThanOrEqual(2000);
      expect(retryDelay(0, 2000, RETRY_DEFAULTS, random)).toBeLessThan(2400);
      for (let attempt = 0; attempt < 8; attempt++) {
        const ceiling = Math.min(RETRY_DEFAULTS.maxDelayMs, RETRY_DEFAULTS.baseDelayMs * 2 ** attempt);
        const delay = retryDelay(attempt, null, RETRY_DEFAULTS, random);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
    // Two clients failing together wait different times.
    expect(retryDelay(3, null, RETRY_DEFAULTS, () => 0.1)).not.toBe(retryDelay(3, null, RETRY_DEFAULTS, () => 0.9));
  });
});
