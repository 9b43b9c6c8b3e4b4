import { ID_ORDER_DIGITS } from '../../domain/ids.ts';
import type { SortOrder } from './sort.ts';

/**
 * Cuts: points on a sort key's value line that split the matching documents in
 * two, counted exactly by the engine. A deep page is found by narrowing a pair of
 * cuts around the wanted position (page-plan.ts); this file holds the value
 * arithmetic and the Query DSL of a cut, pure.
 *
 * A numeric cut sits halfway between two storable values (half a cent, half a
 * day), so "below the cut" means the same to a range query, a range aggregation
 * and the sort, whatever each does with an inclusive or rounded bound (a
 * scaled_float range rounds its bound to the scaling factor; 2019.995 is below
 * 2020 for every one of them). Every sortable number holds whole cents or whole
 * units (money, counts, years) and every sortable date whole days.
 */

export type KeyKind = 'integer' | 'decimal' | 'date' | 'string';
export type NumberKind = Exclude<KeyKind, 'string'>;

const DAY_MS = 86_400_000;

/** The cut just above the storable step that holds v. */
export function cutAbove(kind: NumberKind, v: number): number {
  if (kind === 'date') return Math.floor(v / DAY_MS) * DAY_MS + DAY_MS / 2;
  // Integer fields are cut at whole numbers: the engine's range aggregation truncates a
  // fractional bound on an integer field when it counts from the index (OpenSearch 3.8).
  if (kind === 'integer') return Math.floor(v) + 1;
  return (Math.floor(v * 100 + 1e-6) + 0.5) / 100;
}

/** The cut just below the storable step that holds v. */
export function cutBelow(kind: NumberKind, v: number): number {
  if (kind === 'date') return Math.floor(v / DAY_MS) * DAY_MS - DAY_MS / 2;
  if (kind === 'integer') return Math.floor(v);
  return (Math.floor(v * 100 + 1e-6) - 0.5) / 100;
}

type Bound = 'lt' | 'gte' | 'gt' | 'lte';
export type Bounds = Partial<Record<Bound, number | string>>;

export function rangeOf(field: string, kind: KeyKind, bounds: Partial<Record<Bound, number | string>>): Record<string, unknown> {
  // Dates are cut in epoch milliseconds; the fields themselves are written as calendar days.
  return { range: { [field]: { ...bounds, ...(kind === 'date' ? { format: 'epoch_millis' } : {}) } } };
}

/** Documents before a cut in this key's order: below it ascending, at or above it descending. */
export function beforeCut(field: string, kind: KeyKind, order: SortOrder, cut: number | string): Record<string, unknown> {
  return rangeOf(field, kind, order === 'asc' ? { lt: cut } : { gte: cut });
}

/** Documents whose key equals a stored value. */
export function equalTo(field: string, kind: KeyKind, value: number | string): Record<string, unknown> {
  if (kind === 'string') return { term: { [field]: value } };
  const v = value as number;
  return rangeOf(field, kind, { gte: cutBelow(kind, v), lt: cutAbove(kind, v) });
}

/** Documents whose key comes strictly before a stored value in this key's order. */
export function strictlyBefore(field: string, kind: KeyKind, order: SortOrder, value: number | string): Record<string, unknown> {
  if (kind === 'string') return rangeOf(field, kind, order === 'asc' ? { lt: value } : { gt: value });
  const v = value as number;
  return rangeOf(field, kind, order === 'asc' ? { lt: cutBelow(kind, v) } : { gte: cutAbove(kind, v) });
}

/** Bounds for the documents at or after a stored value in this key's order (not strictly before it). */
export function fromValue(kind: KeyKind, order: SortOrder, value: number | string): Bounds {
  if (kind === 'string') return order === 'asc' ? { gte: value } : { lte: value };
  const v = value as number;
  return order === 'asc' ? { gte: cutBelow(kind, v) } : { lt: cutAbove(kind, v) };
}

/** Bounds for the documents at or before a stored value in this key's order (not strictly after it). */
export function throughValue(kind: KeyKind, order: SortOrder, value: number | string): Bounds {
  if (kind === 'string') return order === 'asc' ? { lte: value } : { gte: value };
  const v = value as number;
  return order === 'asc' ? { lt: cutAbove(kind, v) } : { gte: cutBelow(kind, v) };
}

/** Bounds for the documents strictly after a stored value in this key's order. */
export function afterValue(kind: KeyKind, order: SortOrder, value: number | string): Bounds {
  if (kind === 'string') return order === 'asc' ? { gt: value } : { lt: value };
  const v = value as number;
  return order === 'asc' ? { gte: cutAbove(kind, v) } : { lt: cutBelow(kind, v) };
}

/** Bounds for the documents at or after a cut in this key's order. */
export function fromCut(order: SortOrder, cut: number | string): Bounds {
  return order === 'asc' ? { gte: cut } : { lt: cut };
}

/** Bounds for the documents before a cut in this key's order. */
export function untilCut(order: SortOrder, cut: number | string): Bounds {
  return order === 'asc' ? { lt: cut } : { gte: cut };
}

/**
 * Strings as numbers, to interpolate between two cuts: the characters after the
 * two bounds' common prefix read as digits of the smallest alphabet holding them
 * (hex for our ids, so a uniform hash is interpolated linearly). Only the cost of
 * the search depends on how good the guess is; the counts decide.
 */
export interface CutSpace<V extends string | number> {
  toNumber(v: V): number;
  fromNumber(x: number): V;
}
export type StringSpace = CutSpace<string>;

const HEX = '0123456789abcdef';
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';

export function stringSpace(a: string, b: string): StringSpace {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  const prefix = a.slice(0, p);
  const chars = a.slice(p) + b.slice(p);
  const alphabet = [...chars].every((c) => HEX.includes(c)) ? HEX : [...chars].every((c) => ALNUM.includes(c)) ? ALNUM : null;
  const base = alphabet ? alphabet.length : 0x10000;
  // As many digits as a double holds exactly.
  const digits = Math.floor(52 / Math.log2(base));
  const digitOf = (c: string | undefined): number => {
    if (c === undefined) return 0;
    if (!alphabet) return c.charCodeAt(0);
    const i = alphabet.indexOf(c);
    if (i >= 0) return i;
    // Outside the alphabet: the number of alphabet characters that sort before it.
    return [...alphabet].filter((d) => d < c).length - 0.5;
  };
  return {
    toNumber(s) {
      if (!s.startsWith(prefix)) return s < prefix ? 0 : base ** digits;
      let x = 0;
      for (let i = 0; i < digits; i++) x = x * base + Math.max(0, digitOf(s[p + i]));
      return x;
    },
    fromNumber(x) {
      let n = Math.max(0, Math.min(base ** digits - 1, Math.floor(x)));
      const out: string[] = [];
      for (let i = 0; i < digits; i++) {
        const d = n % base;
        out.unshift(alphabet ? alphabet[d]! : String.fromCharCode(d));
        n = Math.floor(n / base);
      }
      // Trailing zero digits change nothing but the cut's length.
      const zero = alphabet ? alphabet[0]! : String.fromCharCode(0);
      let end = out.length;
      while (end > 0 && out[end - 1] === zero) end--;
      return prefix + out.slice(0, end).join('');
    },
  };
}

/**
 * A string key's order twin: a long field beside it (`<field>_order`, mapped where a
 * dataset is large) holding each value's first ID_ORDER_DIGITS hex digits after its
 * prefix as a whole number (services/domain/ids.ts). The twin never decreases along the
 * key's order, so "twin < N" is a prefix of that order, and a deep page counts it as a
 * points range (or a doc-values check inside a group) instead of a keyword range, which
 * enumerates every term of the range in the whole index: at 10,000,000 certificates that
 * enumeration was most of a deep page's first visit. Its cuts are whole numbers.
 */
export const ORDER_TWIN_TOP = 16 ** ID_ORDER_DIGITS;

export function orderTwinOf(field: string): string {
  return `${field}_order`;
}

export const orderTwinSpace: CutSpace<number> = {
  toNumber: (v) => v,
  fromNumber: (x) => Math.max(0, Math.min(ORDER_TWIN_TOP, Math.floor(x))),
};

/**
 * Scores are float32, so the float32 values next to a score are the tightest cuts
 * around it: "score > v" is "score >= floatAbove(v)" (a min_score or a range
 * bucket's from), with no rounding by the engine.
 */
export function floatAbove(v: number): number {
  return floatStep(v, 1);
}

export function floatBelow(v: number): number {
  return floatStep(v, -1);
}

function floatStep(v: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, v);
  const f = view.getFloat32(0);
  // v between two floats: the float on the asked side.
  if (direction === 1 ? f > v : f < v) return f;
  if (f === 0) return direction * 2 ** -149;
  const bits = view.getInt32(0);
  // Away from zero the bits of a positive float grow, those of a negative one shrink.
  view.setInt32(0, bits + (f > 0 ? direction : -direction));
  return view.getFloat32(0);
}
