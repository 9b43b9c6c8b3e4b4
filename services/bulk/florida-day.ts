import { floridaToday } from '../domain/florida-today.ts';

const HOUR = 3_600_000;

/**
 * The UTC instants a Florida calendar day starts and ends at (America/New_York: 04:00 or
 * 05:00 UTC, and a 23- or 25-hour day when the clocks change), as ISO texts comparable with
 * the events' created_at.
 */
export function floridaDayBounds(day: string): { start: string; end: string } {
  return { start: startOf(day).toISOString(), end: startOf(nextDay(day)).toISOString() };
}

function startOf(day: string): Date {
  // Midnight in Florida is 04:00 UTC in summer and 05:00 UTC in winter: the first of the two that is on the day.
  for (const hour of [4, 5]) {
    const t = new Date(`${day}T0${hour}:00:00.000Z`);
    if (floridaToday(t) === day && floridaToday(new Date(t.getTime() - 1)) !== day) return t;
  }
  throw new RangeError(`no start found for the Florida day ${day}`);
}

function nextDay(day: string): string {
  const d = new Date(`${day}T12:00:00.000Z`);
  return new Date(d.getTime() + 24 * HOUR).toISOString().slice(0, 10);
}
