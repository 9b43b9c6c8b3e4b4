import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.ts';

/**
 * The per-minute limit (spec 8.2): a sliding 60-second window per client, a sorted
 * set of admitted requests scored by Redis's own clock, checked and counted by one
 * Lua script (one atomic round trip, so several API processes share one window).
 * If Redis does not answer within a second the request is let through, logged and
 * counted: the limit protects the service, it must never take it down.
 */

export const WINDOW_MS = 60_000;
export const STORE_TIMEOUT_MS = 1_000;

// KEYS[1] window; ARGV: limit, window ms, member. Returns {allowed, count, now ms, reset ms}.
// A rejected request is not added, so a client hammering a full window recovers when it ages out.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
-- The window has room again when the entry at index count - limit ages out.
local index = count - limit
if index < 0 then index = 0 end
local entry = redis.call('ZRANGE', KEYS[1], index, index, 'WITHSCORES')
local reset = now + window
if entry[2] then reset = tonumber(entry[2]) + window end
return {allowed, count, now, reset}
`;
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds at which the window next has room. */
  resetAtMs: number;
  /** Milliseconds from now to resetAtMs. */
  resetInMs: number;
  /** False when Redis did not answer and the request was let through unchecked. */
  checked: boolean;
}

export interface RateLimiter {
  hit(clientId: string, limit: number, member: string): Promise<RateDecision>;
  /** Requests let through unchecked because Redis failed or timed out, since this limiter was built. */
  readonly storeFailures: number;
}

export function createRateLimiter(
  redis: Redis,
  // windowMs: the API's window is a minute; the account page's sign-in throttles use the same script over longer ones.
  options: { keyPrefix: string; logger: Logger; timeoutMs?: number; windowMs?: number },
): RateLimiter {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const windowMs = options.windowMs ?? WINDOW_MS;
  let storeFailures = 0;

  async function run(key: string, limit: number, member: string): Promise<number[]> {
    const args = [1, key, limit, windowMs, member] as const;
    try {
      return (await redis.evalsha(SCRIPT_SHA, ...args)) as number[];
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return (await redis.eval(SCRIPT, ...args)) as number[];
    }
  }

  return {
    get storeFailures() {
      return storeFailures;
    },
    async hit(clientId, limit, member) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        const result = await Promise.race([run(`${options.keyPrefix}-rl:${clientId}`, limit, member), timeout]);
        if (result === 'timeout') throw new Error(`no answer within ${timeoutMs} ms`);
        const [allowed, count, now, reset] = result as [number, number, number, number];
        return {
          allowed: allowed === 1,
          limit,
          remaining: Math.max(0, limit - count),
          resetAtMs: reset,
          resetInMs: Math.max(0, reset - now),
          checked: true,
        };
      } catch (err) {
        storeFailures += 1;
        options.logger.warn(
          { err: err instanceof Error ? err.message : String(err), rate_limit_store_failures: storeFailures },
          'rate-limit store unavailable: request let through unchecked',
        );
        const now = Date.now();
        return { allowed: true, limit, remaining: limit, resetAtMs: now + windowMs, resetInMs: windowMs, checked: false };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
