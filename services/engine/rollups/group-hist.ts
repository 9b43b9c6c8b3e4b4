import { medianRate } from '../../domain/median-rate.ts';

/**
 * A holder group's figures in one scope (one county, or the whole index), kept as counts that
 * add and take back exactly: the group rollups of rollup-docs.ts. Everything a holder-group row
 * or order shows is a function of these counts (the median from the rate counts, the display
 * name from the name counts, the first year from the year counts), so a difference applied at
 * ingest leaves the same document a rebuild from the certificates would write. Pure.
 *
 * The counts follow the scan's aggregations field by field (holders/build-details.ts): a
 * certificate without a rate is in no rate count, one without a status in no status count.
 */
export interface GroupHist {
  /** Certificates per winning rate (the percent as text). */
  rates: Record<string, number>;
  years: Record<string, number>;
  counties: Record<string, number>;
  /** Certificates per holder-name spelling, as the county lists it. */
  members: Record<string, number>;
  /** Certificates per display-name candidate (holder_group_name). */
  names: Record<string, number>;
  statuses: Record<string, number>;
  /** Face cents per status. */
  status_cents: Record<string, number>;
  /** Certificates held by the county itself. */
  held: number;
}

/** The certificate fields a group rollup counts. */
export interface GroupedCertificate {
  county_slug: string;
  tax_year: number;
  interest_rate?: number | null;
  status?: string | null;
  holder_name?: string | null;
  holder_group_name?: string | null;
  county_held?: boolean | null;
}

const MAPS = ['rates', 'years', 'counties', 'members', 'names', 'statuses', 'status_cents'] as const;

export const emptyHist = (): GroupHist => ({
  rates: {},
  years: {},
  counties: {},
  members: {},
  names: {},
  statuses: {},
  status_cents: {},
  held: 0,
});

function bump(map: Record<string, number>, key: string | number | null | undefined, by: number): void {
  if (key === null || key === undefined) return;
  const k = String(key);
  map[k] = (map[k] ?? 0) + by;
}

/** Adds `times` equal certificates (negative: takes them back), `cents` their face total. */
export function addToHist(h: GroupHist, c: GroupedCertificate, times: number, cents: number): void {
  bump(h.rates, c.interest_rate, times);
  bump(h.years, c.tax_year, times);
  bump(h.counties, c.county_slug, times);
  bump(h.members, c.holder_name, times);
  bump(h.names, c.holder_group_name, times);
  bump(h.statuses, c.status, times);
  bump(h.status_cents, c.status, cents);
  if (c.county_held === true) h.held += times;
}

/** Adds every count of `from` into `into` (which is changed). */
export function addHist(into: GroupHist, from: GroupHist): void {
  for (const m of MAPS) {
    const to = into[m];
    for (const k in from[m]) to[k] = (to[k] ?? 0) + from[m][k]!;
  }
  into.held += from.held;
}

export function mergeHist(a: GroupHist | undefined, b: GroupHist | undefined): GroupHist {
  const out = emptyHist();
  if (a) addHist(out, a);
  if (b) addHist(out, b);
  return out;
}

/** Whether any count went below zero: the rollups no longer match their certificates. */
export const histNegative = (h: GroupHist) => h.held < 0 || MAPS.some((m) => Object.values(h[m]).some((n) => n < 0));

export const histEmpty = (h: GroupHist) => h.held === 0 && MAPS.every((m) => Object.values(h[m]).every((n) => n === 0));

/** The same counts without the keys that came to zero, as a document stores them. */
export function compactHist(h: GroupHist): GroupHist {
  const out = emptyHist();
  for (const m of MAPS) for (const [k, n] of Object.entries(h[m])) if (n !== 0) out[m][k] = n;
  out.held = h.held;
  return out;
}

/** Code-point order, as the engine orders keywords. */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Keys by count, most first, code-point order on a tie (a terms aggregation's order). */
export function byCount(map: Record<string, number>): [string, number][] {
  return Object.entries(map)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || byKey(a[0], b[0]));
}

export function histMedian(h: GroupHist): number {
  return medianRate(
    Object.entries(h.rates)
      .filter(([, n]) => n > 0)
      .map(([r, n]) => [Number(r), n] as const),
  );
}

/** The display name: the most common candidate, the first in code-point order on a tie; '' for none. */
export const histName = (h: GroupHist) => byCount(h.names)[0]?.[0] ?? '';
