import type { RateDecision } from './rate-limit.ts';

/**
 * The rate-limit headers of spec 8.6, on every /api/v1 response once the key is
 * known. X-RateLimit-Reset is Unix seconds everywhere, 429s included (the spec's
 * example shows a delta on 429; one meaning per header is what clients can code
 * against, and Retry-After already carries the delta).
 */
export function rateHeaders(d: RateDecision): Record<string, string> {
  const seconds = Math.ceil(d.resetInMs / 1000);
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(Math.ceil(d.resetAtMs / 1000)),
    ratelimit: `"default";r=${d.remaining};t=${seconds}`,
  };
}

/** Seconds a client waits before the window has room: at least 1. */
export function retryAfterSeconds(d: RateDecision): number {
  return Math.max(1, Math.ceil(d.resetInMs / 1000));
}
