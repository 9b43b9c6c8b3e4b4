import type { Parsed } from './money.ts';

/**
 * Dates arrive as MM/DD/YYYY, YYYY-MM-DD or YYYYMMDD; canonical is YYYY-MM-DD.
 * A date that does not exist (02/30/2024) or a two-digit year is refused, never
 * rolled over or guessed.
 */

export type DateLayout = 'MM/DD/YYYY' | 'YYYY-MM-DD' | 'YYYYMMDD';

const PATTERNS: Record<DateLayout, { re: RegExp; y: number; m: number; d: number }> = {
  'MM/DD/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, y: 3, m: 1, d: 2 },
  'YYYY-MM-DD': { re: /^(\d{4})-(\d{2})-(\d{2})$/, y: 1, m: 2, d: 3 },
  YYYYMMDD: { re: /^(\d{4})(\d{2})(\d{2})$/, y: 1, m: 2, d: 3 },
};

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function isValidYmd(year: number, month: number, day: number): boolean {
  return year >= 1900 && year <= 2199 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/** Parses one layout; other layouts are refused so a swapped day/month cannot slip through. */
export function parseDate(text: string, layout: DateLayout): Parsed<string> {
  const p = PATTERNS[layout];
  const m = p.re.exec(text.trim());
  if (m === null) return { ok: false, reason: `is not a date (${layout})` };
  const year = Number(m[p.y]);
  const month = Number(m[p.m]);
  const day = Number(m[p.d]);
  if (!isValidYmd(year, month, day)) return { ok: false, reason: 'is not a real calendar date' };
  return { ok: true, value: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` };
}

/** Canonical YYYY-MM-DD -> the layout a format writes. */
export function formatDate(iso: string, layout: DateLayout): string {
  const y = iso.slice(0, 4);
  const m = iso.slice(5, 7);
  const d = iso.slice(8, 10);
  if (layout === 'MM/DD/YYYY') return `${m}/${d}/${y}`;
  if (layout === 'YYYYMMDD') return `${y}${m}${d}`;
  return iso;
}
