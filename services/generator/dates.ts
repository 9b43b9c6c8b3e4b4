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

/** The calendar year of a day. */
export function yearOf(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}

/** The same calendar date `months` later (overflowing into the next month: May 31 + 1 month is July 1). */
export function addMonths(day: number, months: number): number {
  const d = new Date(day * MS_PER_DAY);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate()) / MS_PER_DAY;
}

/** The same calendar date `years` later (Feb 29 becomes Mar 1). */
export function addYears(day: number, years: number): number {
  const d = new Date(day * MS_PER_DAY);
  return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate()) / MS_PER_DAY;
}

/** The business days from May 18 to June 1 of `year` (weekends and Memorial Day excluded). */
export function saleWindow(year: number): number[] {
  const days: number[] = [];
  for (let d = dayOf(year, 5, 18); d <= dayOf(year, 6, 1); d++) if (weekday(d) === d) days.push(d);
  return days;
}

/**
 * The days of one county's certificate sale in `year`: `length` consecutive business
 * days starting `startIndex` business days into the last two weeks of May, moved
 * earlier when needed so the last day is on or before June 1. s. 197.402(3) F.S.
 * has the sale start by June 1 (or the 60th day after delinquency when taxes
 * become delinquent late, which we do not model); online sales run a few days.
 */
export function saleDaysIn(year: number, startIndex: number, length: number): number[] {
  const window = saleWindow(year);
  const n = Math.min(Math.max(1, length), window.length);
  const start = Math.min(Math.max(0, startIndex), window.length - n);
  return window.slice(start, start + n);
}

/**
 * Months from one day to another counting each month or part thereof, at least 1
 * (the delinquent-tax interest of s. 197.172(1) up to the sale). Anniversaries
 * clamp to the month's end: Jan 31 + 1 month is Feb 28/29. Not the redemption
 * count, which goes by calendar month (services/domain/redemption-quote.ts).
 */
export function monthsOrPartSince(from: string, to: string): number {
  const start = new Date(parseDay(from) * MS_PER_DAY);
  const end = new Date(parseDay(to) * MS_PER_DAY);
  if (to < from) throw new RangeError(`${to} is before ${from}`);
  const [d1, d2] = [start.getUTCDate(), end.getUTCDate()];
  let whole = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + (end.getUTCMonth() - start.getUTCMonth());
  const monthEnd = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  const anniversary = Math.min(d1, monthEnd);
  if (d2 < anniversary) whole -= 1;
  return Math.max(1, d2 === anniversary ? whole : whole + 1);
}
