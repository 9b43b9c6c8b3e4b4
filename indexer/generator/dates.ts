/**
 * Dates as whole UTC day numbers (days since 1970-01-01): cheap to add and
 * compare in the hot loop; turned into YYYY-MM-DD through a cache.
 */

const MS_PER_DAY = 86_400_000;

export function dayOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

export function parseDay(iso: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${iso}`);
  const day = dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  if (isoDay(day) !== iso) throw new RangeError(`not a calendar date: ${iso}`);
  return day;
}

const isoCache = new Map<number, string>();

export function isoDay(day: number): string {
  let s = isoCache.get(day);
  if (s === undefined) {
    s = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    isoCache.set(day, s);
  }
  return s;
}

/** A Monday from May 25 on: the last Monday of May. */
function isMemorialDay(monday: number): boolean {
  const iso = isoDay(monday);
  return iso.charCodeAt(5) === 48 && iso.charCodeAt(6) === 53 && iso >= `${iso.slice(0, 8)}25`;
}

/**
 * Moves a day forward to the next business day (Saturday and Sunday, and Memorial
 * Day, which falls in sale season): sales and payments happen on business days.
 */
export function weekday(day: number): number {
  const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const next = dow === 6 ? day + 2 : dow === 0 ? day + 1 : day;
  return (dow === 6 || dow === 0 || dow === 1) && isMemorialDay(next) ? next + 1 : next;
}

/** The same calendar date `years` later (Feb 29 becomes Mar 1). */
export function addYears(day: number, years: number): number {
  const d = new Date(day * MS_PER_DAY);
  return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate()) / MS_PER_DAY;
}
