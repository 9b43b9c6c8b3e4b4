/**
 * When a failed delivery is tried again. The schedule is the list of
 * waits after each failed attempt (WEBHOOK_RETRY_SCHEDULE; by default about 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h, as Svix's), so a delivery has schedule.length + 1 attempts over about
 * 28 hours. Each wait gets +-10% jitter, so the many deliveries of one outage do not all come
 * back in the same second.
 */

export const JITTER = 0.1;

/**
 * The wait after attempt number `attempt` (1-based) failed, or null when it was the last.
 * `random` is a number in [0, 1) (Math.random in the worker, fixed in tests).
 */
export function retryDelay(schedule: readonly number[], attempt: number, random: number): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 - JITTER + 2 * JITTER * random)));
}

/** Attempts a delivery gets in all: the first one and one per wait. */
export function maxAttempts(schedule: readonly number[]): number {
  return schedule.length + 1;
}
