import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { beforeCut, cutAbove, cutBelow } from '../../../../../services/engine/paging/cuts.ts';
import { type CutBucket, locate } from '../../../../../services/engine/paging/number-cuts.ts';
import { DEFAULT_PAGE_OPTIONS, deepPlan, fromFarEnd, type PageRequest } from '../../../../../services/engine/paging/plan.ts';
import { floatAbove, floatBelow, scoreCuts, startOf } from '../../../../../services/engine/paging/score-cuts.ts';
import {
  narrow,
  ORDER_TWIN_TOP,
  orderTwinOf,
  orderTwinSpace,
  stringCuts,
  stringSpace,
} from '../../../../../services/engine/paging/string-cuts.ts';
import { effectiveSort, type SortKey } from '../../../../../services/engine/paging/sort.ts';

const id: SortKey = { field: 'id', order: 'asc' };
const req = (offset: number, sort: SortKey[], limit = 25): PageRequest => ({ query: { match_all: {} }, sort, offset, limit });
const bucket = (from: number | undefined, to: number | undefined, n: number, min: number, max: number): CutBucket => ({
  ...(from === undefined ? {} : { from }),
  ...(to === undefined ? {} : { to }),
  doc_count: n,
  min: { value: n ? min : null },
  max: { value: n ? max : null },
});

describe('deepPlan', () => {
  const bySale: SortKey[] = [{ field: 'sale_date', order: 'desc' }, id];
  const byScore: SortKey[] = [{ score: true, order: 'desc' }, id];
  it('returns nothing at or past the total', () => {
    expect(deepPlan(req(1000, bySale), bySale, 1000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'empty' });
  });
  it('reads the last pages from the far end with the order reversed', () => {
    expect(deepPlan(req(999_000, bySale), bySale, 1_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'far-end', from: 975, size: 25 });
    // Further from the end a field order is selected: a reversed from+size sorts every match.
    expect(deepPlan(req(995_000, bySale), bySale, 1_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'select', size: 25 });
    // A short last page: only the rows that exist.
    expect(deepPlan(req(999_990, bySale), bySale, 1_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'far-end', from: 0, size: 10 });
  });
  it('selects a field-sorted page in the middle', () => {
    expect(deepPlan(req(500_000, bySale), bySale, 1_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'select', size: 25 });
  });
  it('selects a relevance page by score counts at any depth, and reads its last pages from the far end', () => {
    expect(deepPlan(req(200_000, byScore), byScore, 1_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'select-score', size: 25 });
    expect(deepPlan(req(1_500_000, byScore), byScore, 3_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'select-score', size: 25 });
    expect(deepPlan(req(995_000, byScore), byScore, 1_000_000, DEFAULT_PAGE_OPTIONS)).toEqual({ kind: 'far-end', from: 4975, size: 25 });
  });
  it('fromFarEnd mirrors the window', () => {
    expect(fromFarEnd(0, 25, 10)).toEqual({ from: 0, size: 10 });
    expect(fromFarEnd(90, 25, 100)).toEqual({ from: 0, size: 10 });
    expect(fromFarEnd(50, 25, 100)).toEqual({ from: 25, size: 25 });
  });
});

describe('locate', () => {
  // Values 1..3 with 10, 20, 30 documents, cut at 1.5 and 2.5 (as half-step cuts would be).
  const buckets = [bucket(undefined, 1.5, 10, 1, 1), bucket(1.5, 2.5, 20, 2, 2), bucket(2.5, undefined, 30, 3, 3)];
  it('ascending: counts from the smallest value; the cut is the bucket start', () => {
    expect(locate(buckets, 0, 'asc')).toEqual({ cut: null, before: 0, count: 10, min: 1, max: 1 });
    expect(locate(buckets, 10, 'asc')).toEqual({ cut: 1.5, before: 10, count: 20, min: 2, max: 2 });
    expect(locate(buckets, 59, 'asc')).toEqual({ cut: 2.5, before: 30, count: 30, min: 3, max: 3 });
    expect(locate(buckets, 60, 'asc')).toBeNull();
  });
  it('descending: counts from the largest value; the cut is the bucket end', () => {
    expect(locate(buckets, 0, 'desc')).toEqual({ cut: null, before: 0, count: 30, min: 3, max: 3 });
    expect(locate(buckets, 30, 'desc')).toEqual({ cut: 2.5, before: 30, count: 20, min: 2, max: 2 });
    expect(locate(buckets, 55, 'desc')).toEqual({ cut: 1.5, before: 50, count: 10, min: 1, max: 1 });
  });
});

describe('cuts', () => {
  it('sit half a cent, a whole number or half a day around a stored value', () => {
    expect(cutAbove('decimal', 123.45)).toBe(123.455);
    expect(cutBelow('decimal', 123.45)).toBe(123.445);
    expect(cutAbove('decimal', 0.29)).toBe(0.295);
    expect(cutAbove('integer', 2024)).toBe(2025);
    expect(cutBelow('integer', 2024)).toBe(2024);
    expect(cutAbove('integer', 2024.7)).toBe(2025);
    const day = Date.UTC(2024, 5, 1);
    expect(cutAbove('date', day)).toBe(day + 43_200_000);
    expect(cutBelow('date', day)).toBe(day - 43_200_000);
  });
  it('interpolate hex ids in their own digit space and never leave the bracket', () => {
    const space = stringSpace('cert_0000000000000000000a', 'cert_ffffffffffffffffffff');
    expect(space.fromNumber(space.toNumber('cert_8'))).toBe('cert_8');
    expect(space.toNumber('cert_8')).toBeCloseTo(space.toNumber('cert_ffffffffffffffffffff') / 2, -3);
    const lo = { cut: 'cert_0000000000000000000a', before: 0 };
    const hi = { cut: 'cert_ffffffffffffffffffff\u0000', before: 100_000 };
    const cuts = stringCuts(space, lo, hi, 50_000, 2000);
    expect(cuts.length).toBeGreaterThan(0);
    for (const c of cuts) expect(c > lo.cut && c < hi.cut).toBe(true);
    // Aimed just before position 50,000 of a uniform hash: the first cut is a little below the middle.
    // 49,000 of 100,000 is 0x7d70... in hex.
    expect(cuts[0]! < 'cert_8' && cuts[0]! > 'cert_7d').toBe(true);
  });
  it('descending strings: the bracket runs from high to low and still shrinks', () => {
    const space = stringSpace('cert_0', 'cert_f');
    const lo = { cut: 'cert_f\u0000', before: 0 };
    const hi = { cut: 'cert_0', before: 1000 };
    const cuts = stringCuts(space, lo, hi, 500, 100);
    for (const c of cuts) expect(c < lo.cut && c > hi.cut).toBe(true);
    const next = narrow(lo, hi, [{ cut: cuts[0]!, before: 480 }], 500);
    expect(next.lo).toEqual({ cut: cuts[0], before: 480 });
  });
  it('an order twin is cut on whole numbers inside its bracket, in either order, as a long range', () => {
    const asc = stringCuts(orderTwinSpace, { cut: 0, before: 0 }, { cut: ORDER_TWIN_TOP, before: 100_000 }, 50_000, 2000);
    expect(asc.length).toBeGreaterThan(0);
    for (const c of asc) {
      expect(Number.isSafeInteger(c)).toBe(true);
      expect(c > 0 && c < ORDER_TWIN_TOP).toBe(true);
    }
    // Aimed just before the middle of a uniform hash: 49,000 of 100,000.
    expect(asc[0]! / ORDER_TWIN_TOP).toBeCloseTo(0.49, 3);
    const desc = stringCuts(orderTwinSpace, { cut: ORDER_TWIN_TOP, before: 0 }, { cut: 0, before: 1000 }, 500, 100);
    for (const c of desc) expect(c < ORDER_TWIN_TOP && c > 0).toBe(true);
    expect(beforeCut(orderTwinOf('id'), 'integer', 'asc', asc[0]!)).toEqual({ range: { id_order: { lt: asc[0] } } });
    expect(beforeCut(orderTwinOf('id'), 'integer', 'desc', desc[0]!)).toEqual({ range: { id_order: { gte: desc[0] } } });
  });
});

describe('score cuts', () => {
  it('step to the neighbouring float32, so "> v" is ">= floatAbove(v)" exactly', () => {
    const v = Math.fround(0.764);
    expect(floatAbove(v)).toBeGreaterThan(v);
    expect(Math.fround(floatAbove(v))).toBe(floatAbove(v));
    expect(floatBelow(floatAbove(v))).toBe(v);
    // Nothing representable in between: the midpoint rounds to one of the two.
    expect([v, floatAbove(v)]).toContain(Math.fround((v + floatAbove(v)) / 2));
    expect(floatAbove(1)).toBe(1 + 2 ** -23);
    expect(floatBelow(1)).toBe(1 - 2 ** -24);
    expect(floatAbove(0)).toBe(2 ** -149);
    expect(floatBelow(-1)).toBe(-(1 + 2 ** -23));
    // A double between two floats: the float on the asked side.
    expect(floatAbove(0.76400167)).toBe(
      Math.fround(0.76400167) > 0.76400167 ? Math.fround(0.76400167) : floatAbove(Math.fround(0.76400167)),
    );
  });
  it('cut around every percentile, so a large group of equal scores gets a bucket of its own', () => {
    const cuts = scoreCuts([0.5, 0.75, 0.75, 1.25], 10, 100);
    for (const p of [0.5, 0.75, 1.25]) {
      expect(cuts).toContain(p);
      expect(cuts).toContain(floatBelow(p));
    }
    for (const c of cuts) expect(Math.fround(c)).toBe(c);
    expect([...cuts].sort((a, b) => a - b)).toEqual(cuts);
  });
  it('inside a bracket: only cuts that split it, the smallest score first', () => {
    const cuts = scoreCuts([], 10, 100, { min: 0.75, max: 0.8125 });
    expect(cuts[0]).toBe(0.75);
    for (const c of cuts) expect(c >= 0.75 && c < 0.8125).toBe(true);
    expect(cuts.length).toBeGreaterThan(40);
  });
  it('start values come before every stored value of a later key', () => {
    expect(startOf('string', 'asc')).toBe('');
    expect(startOf('date', 'desc')).toBe(Number.MAX_SAFE_INTEGER);
    expect(startOf('integer', 'asc')).toBe(Number.MIN_SAFE_INTEGER);
    expect(startOf('decimal', 'desc')).toBe(Number.MAX_VALUE);
    expect(() => startOf('string', 'desc')).toThrow();
  });
});

describe('order and results', () => {
  it('drops a score key when no clause scores, keeps it otherwise', () => {
    const sort: SortKey[] = [{ score: true, order: 'desc' }, id];
    expect(effectiveSort(sort, { match_all: {} })).toEqual([id]);
    expect(effectiveSort(sort, { bool: { filter: [{ term: { a: 1 } }], must_not: [] } })).toEqual([id]);
    expect(effectiveSort(sort, { bool: { must: [{ match: { a: 'x' } }] } })).toEqual(sort);
    expect(effectiveSort(sort, { multi_match: { query: 'x' } })).toEqual(sort);
  });
  it("the plan windows are the mapping files' max_result_window", () => {
    const window = (f: string) =>
      JSON.parse(readFileSync(new URL(`../../../../../mappings/${f}.json`, import.meta.url), 'utf8')).settings.index.max_result_window;
    for (const f of ['certificates', 'sales', 'holders', 'lands-available']) expect(window(f)).toBe(DEFAULT_PAGE_OPTIONS.window);
    expect(DEFAULT_PAGE_OPTIONS.skipMax + 500).toBeLessThanOrEqual(DEFAULT_PAGE_OPTIONS.window);
  });
});
