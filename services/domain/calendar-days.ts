/**
 * Calendar dates as whole UTC day numbers (days since 1970-01-01), for the
 * statute's date arithmetic: adding years, counting months and days. Pure.
 */

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dayOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/**
 * The YYYY-MM-DD of a day number, by arithmetic on the proleptic Gregorian calendar (Howard
 * Hinnant's civil_from_days) rather than a Date: a portfolio figures 10,000 certificates a
 * request, each through several of these, and a Date with toISOString cost most of that time.
 */
export function isoOf(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** The day number of a YYYY-MM-DD calendar date, or undefined for anything else (2025-02-30 included). */
export function parseIsoDay(iso: string): number | undefined {
  const m = ISO_DATE.exec(iso);
  if (!m) return undefined;
  const day = dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  return isoOf(day) === iso ? day : undefined;
}

export function isCalendarDate(iso: string): boolean {
  return parseIsoDay(iso) !== undefined;
}

function mustParse(iso: string): number {
  const day = parseIsoDay(iso);
  if (day === undefined) throw new RangeError(`not a YYYY-MM-DD calendar date: ${iso}`);
  return day;
}

/**
 * The same calendar date `years` on; Feb 29 becomes Mar 1 when the target year
 * has none (the generator's convention, so its expiry days and ours agree).
 */
export function addYearsIso(iso: string, years: number): string {
  const [y, m, d] = [Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10))];
  mustParse(iso);
  return isoOf(dayOf(y + years, m, d));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return mustParse(to) - mustParse(from);
}

export function previousDay(iso: string): string {
  return isoOf(mustParse(iso) - 1);
}
