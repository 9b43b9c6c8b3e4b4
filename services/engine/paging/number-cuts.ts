import { cutAbove, cutBelow, type KeyKind, type NumberKind } from './cuts.ts';
import { type Body, PERCENTS, PLAN_AGG } from './plan.ts';
import type { SortOrder } from './sort.ts';

/**
 * Placing a position on a number or date key, pure: the key's distribution asked for
 * with the total, its values when they are few, cuts to count around the wanted rank,
 * and where the wanted position falls among the counted buckets. The rounds that send
 * these requests are select-number.ts.
 */

/** The first key's distribution, asked for with the total when the key is a number or a date. */
export function keyStatsAggs(field: string): Body {
  return {
    [PLAN_AGG.percentiles]: { percentiles: { field, percents: PERCENTS, tdigest: { compression: 200 } } },
    [PLAN_AGG.stats]: { stats: { field } },
  };
}

/**
 * Every distinct value of a date or whole-number first key with its exact count, when
 * there are at most this many (sale days, tax years): the position of any offset is
 * then read off the counts, with no cut to count. The request carrying it does not
 * depend on the offset, so the engine's request cache answers it for every later page
 * of the same query until the next refresh.
 */
export const VALUES_MAX = 2_000;

export function keyValuesAggs(field: string): Body {
  return { [PLAN_AGG.values]: { terms: { field, size: VALUES_MAX, order: { _key: 'asc' } } } };
}

/** The plan's aggregations for a number or date key: its distribution, and its values when they are few. */
export function keyAggs(field: string, kind: KeyKind): Body {
  return { ...keyStatsAggs(field), ...(kind === 'date' || kind === 'integer' ? keyValuesAggs(field) : {}) };
}

/**
 * The values as cut buckets (one value each, between the cuts around it), or null when
 * the key has more values than were listed. Ordered by key, each shard lists its
 * smallest values, so the counts are exact whenever nothing is left over.
 */
export function valueBuckets(kind: NumberKind, aggs: Record<string, unknown> | undefined): CutBucket[] | null {
  const values = aggs?.[PLAN_AGG.values] as { sum_other_doc_count: number; buckets: { key: number; doc_count: number }[] } | undefined;
  if (!values || values.sum_other_doc_count > 0 || values.buckets.length === 0) return null;
  return values.buckets.map((b) => ({
    from: cutBelow(kind, b.key),
    to: cutAbove(kind, b.key),
    doc_count: b.doc_count,
    min: { value: b.key },
    max: { value: b.key },
  }));
}

export interface KeyStats {
  count: number;
  min: number | null;
  max: number | null;
}

/**
 * Cuts to count: one at every percentile, and 48 more spread over the percentile
 * interval around the wanted rank (where an exact count is worth most).
 * `ascRank` is the wanted position counted from the smallest value.
 */
export function numberCuts(kind: NumberKind, percentiles: readonly (number | null)[], ascRank: number, count: number): number[] {
  const values = percentiles.filter((v): v is number => v !== null && Number.isFinite(v));
  const cuts = new Set(values.map((v) => cutAbove(kind, v)));
  if (values.length > 0 && count > 0) {
    const at = Math.min(values.length - 1, Math.max(0, Math.floor((ascRank / count) * (values.length + 1)) - 1));
    const lo = values[Math.max(0, at - 1)]!;
    const hi = values[Math.min(values.length - 1, at + 2)]!;
    for (let i = 1; i <= 48; i++) cuts.add(cutAbove(kind, lo + ((hi - lo) * i) / 49));
  }
  return [...cuts].sort((a, b) => a - b);
}

/** Exact counts between consecutive cuts, each with its smallest and largest value. */
export function cutsAggs(field: string, cuts: readonly number[]): Body {
  const ranges = [{ to: cuts[0] }, ...cuts.slice(0, -1).map((from, i) => ({ from, to: cuts[i + 1] })), { from: cuts[cuts.length - 1] }];
  return {
    [PLAN_AGG.cuts]: {
      range: { field, ranges: cuts.length === 0 ? [{}] : ranges },
      aggs: { min: { min: { field } }, max: { max: { field } } },
    },
  };
}

export interface CutBucket {
  from?: number;
  to?: number;
  doc_count: number;
  min: { value: number | null };
  max: { value: number | null };
}

/** Where position t (counted in sort order within the counted documents) falls. */
export interface Located {
  /** The cut on the near side of the bucket; null when nothing comes before it. */
  cut: number | null;
  /** Documents before that cut. */
  before: number;
  count: number;
  min: number;
  max: number;
}

export function locate(buckets: readonly CutBucket[], t: number, order: SortOrder): Located | null {
  const inOrder = order === 'asc' ? buckets : [...buckets].reverse();
  let before = 0;
  for (const b of inOrder) {
    if (t < before + b.doc_count) {
      const cut = order === 'asc' ? b.from : b.to;
      return { cut: cut ?? null, before, count: b.doc_count, min: b.min.value!, max: b.max.value! };
    }
    before += b.doc_count;
  }
  return null;
}

/**
 * The nearest cut, in sort order, with at least `need` documents of the counted set
 * before it: a page whose last row is at position need-1 ends before it. The far
 * edge of a bucket; undefined when only the open-ended last bucket reaches `need`.
 */
export function endCut(buckets: readonly CutBucket[], need: number, order: SortOrder): { cut: number; before: number } | undefined {
  const inOrder = order === 'asc' ? buckets : [...buckets].reverse();
  let before = 0;
  for (const b of inOrder) {
    before += b.doc_count;
    if (before >= need) {
      const cut = order === 'asc' ? b.to : b.from;
      return cut === undefined ? undefined : { cut, before };
    }
  }
  return undefined;
}
