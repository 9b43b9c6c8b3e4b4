import { ID_ORDER_DIGITS } from '../../domain/ids.ts';
import { isScoreKey, type SortKey } from './sort.ts';

/**
 * Placing a position on a string key, pure: strings as numbers to interpolate between two
 * counted cuts, the key's order twin when the index maps one, the cuts to count next and
 * the bracket they narrow. The rounds that count them are select-string.ts.
 */

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

/** The sort's fields whose order twin the index maps as a long. */
export function twinsOf(sort: readonly SortKey[], types: Record<string, string>): Set<string> {
  return new Set(sort.flatMap((k) => (!isScoreKey(k) && types[orderTwinOf(k.field)] === 'long' ? [k.field] : [])));
}

/**
 * A cut on a string key with the exact number of documents before it: a string on the
 * key itself, or a whole number on the key's order twin (orderTwinSpace).
 */
export interface KeyCut<V extends string | number> {
  cut: V;
  before: number;
}

/**
 * Cuts between two counted ones to count next: aimed a little before position t
 * (so the final skip is small) and a little after it (so the bracket shrinks),
 * interpolated in the digit space of the working set's smallest and largest
 * values; the midpoint too, so a bracket shrinks even when a guess is poor.
 */
export function stringCuts<V extends string | number>(space: CutSpace<V>, lo: KeyCut<V>, hi: KeyCut<V>, t: number, skipMax: number): V[] {
  const a = space.toNumber(lo.cut);
  const b = space.toNumber(hi.cut);
  // Few cuts: on a large working set each count of a string range costs a pass over its terms.
  const targets = [t - skipMax / 2, t - skipMax / 8, t + skipMax / 4];
  const fractions = targets.filter((x) => x > lo.before && x < hi.before).map((x) => (x - lo.before) / (hi.before - lo.before));
  const out = new Set<V>();
  const inside = (c: V) => (c > lo.cut && c < hi.cut) || (c < lo.cut && c > hi.cut);
  for (const f of fractions) {
    const c = space.fromNumber(a + (b - a) * f);
    if (inside(c)) out.add(c);
  }
  const mid = space.fromNumber((a + b) / 2);
  if (out.size === 0 && inside(mid)) out.add(mid);
  return [...out];
}

/** The tightest bracket around t among counted cuts. */
export function narrow<V extends string | number>(
  lo: KeyCut<V>,
  hi: KeyCut<V>,
  counted: readonly KeyCut<V>[],
  t: number,
): { lo: KeyCut<V>; hi: KeyCut<V> } {
  let l = lo;
  let h = hi;
  for (const c of counted) {
    // Ties move inward: a cut with the same count as a bracket end but inside it still narrows the key range.
    if (c.before <= t && c.before >= l.before) l = c;
    if (c.before > t && c.before <= h.before) h = c;
  }
  return { lo: l, hi: h };
}
