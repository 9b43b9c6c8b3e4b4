/** Calendar arithmetic of the credit buckets, all in UTC. */

/** 'YYYY-MM' of the month holding `now`. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** 'YYYY-MM-DD' of the day holding `now`. */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** 00:00:00 UTC on the first day of the month after `now`. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds from `now` to the next calendar month (at least 1): Retry-After of a monthly-quota 429. */
export function secondsToNextMonth(now: Date): number {
  return Math.max(1, Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000));
}

export const TRIAL_FULL_ACCESS_MS = 7 * 24 * 60 * 60 * 1000;
