/** When a failed attempt is tried again, and after how long. */

export interface RetryOptions {
  /** Attempts after the first; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** The first backoff's ceiling in ms, doubled per attempt. Default 500. */
  baseDelayMs?: number;
  /** No backoff is longer than this. Default 20,000. */
  maxDelayMs?: number;
  /**
   * A Retry-After longer than this is not waited for: the error is thrown at once (a monthly
   * quota's 429 says to wait until the next billing cycle). Default 60,000.
   */
  maxRetryAfterMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

/** Request timeout, too many requests, and the server's own failures: another attempt may succeed. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Whether a refusal is worth another attempt: a retryable status, or a write whose Idempotency-Key
 * is still held by its own earlier attempt (one that timed out here while the API kept running
 * it); the API names that case in details.reason, and a later attempt replays its answer.
 */
export function isRetryableRefusal(status: number, code: string, details: Record<string, unknown> | undefined): boolean {
  return isRetryableStatus(status) || (code === 'idempotency_conflict' && details?.reason === 'in_progress');
}

/** Retry-After in ms: delta seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The wait before retry number `attempt` (0 for the first retry). A Retry-After is honoured as a
 * floor, with a little jitter on top so that clients limited together do not return together;
 * without one, exponential backoff with jitter: a random wait between half the doubled ceiling and all of it.
 */
export function retryDelay(attempt: number, retryAfterMs: number | null, options: Required<RetryOptions>, random = Math.random): number {
  if (retryAfterMs !== null) return retryAfterMs + Math.floor(random() * Math.min(1000, retryAfterMs * 0.1 + 100));
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(ceiling / 2 + (random() * ceiling) / 2);
}
