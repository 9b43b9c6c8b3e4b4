/**
 * Money arrives as text in many shapes ("$1,234.56", "1,234.56", "1234.5", cents
 * "0000123456"). Everything is parsed digit by digit into integer cents, so no
 * float ever rounds a value: 1.005 dollars is 101 cents, not 100.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const NOT_MONEY = 'is not a dollar amount';
/** Dollars with optional $, optional thousands groups, any number of decimals (rounded half-up to cents). */
const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?$/;
const CENTS = /^\d+$/;
/** Far above any certificate; keeps integer cents exact in a double. */
const MAX_CENTS = 100_000_000_000;

function fromCents(cents: number): Parsed<number> {
  if (cents > MAX_CENTS) return { ok: false, reason: 'is too large' };
  return { ok: true, value: cents / 100 };
}

/** "$1,234.56" | "1,234.56" | "1234.5" | ".5" -> dollars; half a cent or more rounds up. */
export function parseDollars(text: string): Parsed<number> {
  const s = text.trim();
  if (s.startsWith('-') || (s.startsWith('(') && s.endsWith(')'))) return { ok: false, reason: 'is negative' };
  const m = DOLLARS.exec(s);
  if (m === null || (m[1] === undefined && m[2] === undefined)) return { ok: false, reason: NOT_MONEY };
  const whole = Number((m[1] ?? '0').replace(/,/g, ''));
  const frac = m[2] ?? '';
  const cents = Number(`${frac}00`.slice(0, 2)) + (frac.length > 2 && frac.charCodeAt(2) >= 53 ? 1 : 0);
  return fromCents(whole * 100 + cents);
}

/** Zero-padded integer cents ("0000123456") -> dollars. */
export function parseCents(text: string): Parsed<number> {
  const s = text.trim();
  if (s.startsWith('-')) return { ok: false, reason: 'is negative' };
  if (!CENTS.test(s)) return { ok: false, reason: 'is not an amount in cents' };
  return fromCents(Number(s));
}

/** Dollars (a number) -> whole cents, half a cent rounding away from zero, without float drift (1.005 -> 101). */
export function toCents(dollars: number): number {
  const scaled = Number((Math.abs(dollars) * 100).toPrecision(15));
  return Math.sign(dollars) * Math.round(scaled);
}

/** Rounds a dollar amount to whole cents, half-up. */
export function roundCents(dollars: number): number {
  return toCents(dollars) / 100;
}

function plain(cents: number): [string, string] {
  const whole = Math.trunc(cents / 100);
  const frac = String(cents % 100).padStart(2, '0');
  return [String(whole), frac];
}

/** 1234.5 -> "1234.50" */
export function formatPlain(dollars: number): string {
  const [whole, frac] = plain(toCents(dollars));
  return `${whole}.${frac}`;
}

/** 1234.5 -> "1,234.50" */
export function formatGrouped(dollars: number): string {
  const [whole, frac] = plain(toCents(dollars));
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${frac}`;
}

/** 1234.5 -> "$1,234.50" */
export function formatUsd(dollars: number): string {
  return `$${formatGrouped(dollars)}`;
}

/** 1234.5 -> "123450", or zero-padded to `width` digits. */
export function formatCents(dollars: number, width = 0): string {
  return String(toCents(dollars)).padStart(width, '0');
}
