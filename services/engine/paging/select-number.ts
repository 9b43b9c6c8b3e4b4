import { search } from '../search.ts';
import type { FieldKey, PageRead } from './context.ts';
import type { NumberKind } from './cuts.ts';
import { type CutBucket, cutsAggs, type KeyStats, keyAggs, numberCuts, valueBuckets } from './number-cuts.ts';
import { PLAN_AGG } from './plan.ts';

/**
 * Where a position falls on a number or date key (money, sale days, tax years): the key's
 * values with their exact counts when they are few, otherwise its distribution proposes
 * cuts and one range aggregation counts the documents between them exactly (number-cuts.ts).
 * select-field.ts reads the position off the buckets.
 */

/** The working set's counted buckets in ascending order, or its one value (a group of equal keys). */
export type NumberCount = { buckets: CutBucket[] } | { one: number };

/**
 * Counts the working set (`query`) on a number or date key around position t; `known` is
 * the answer of the key's aggregations when the page's count request already carried them.
 * Null when the key cannot place t (no values, or t past them).
 */
export async function countNumberKey(
  read: PageRead,
  query: Record<string, unknown>,
  key: FieldKey,
  kind: NumberKind,
  t: number,
  known: Record<string, unknown> | undefined,
): Promise<NumberCount | null> {
  const { client, index } = read;
  const aggs = known ?? (await search(client, index, { query, size: 0, aggs: keyAggs(key.field, kind) })).aggregations;
  const values = valueBuckets(kind, aggs);
  if (values) return { buckets: values };
  const stats = aggs?.[PLAN_AGG.stats] as KeyStats | undefined;
  const percentiles = aggs?.[PLAN_AGG.percentiles] as { values: Record<string, number | null> } | undefined;
  if (!stats || stats.min === null || stats.max === null || t >= stats.count) return null;
  // One value: the working set is a group of equal keys; the caller splits it on the next key.
  if (stats.min === stats.max) return { one: stats.min };
  const ascRank = key.order === 'asc' ? t : stats.count - 1 - t;
  const cuts = numberCuts(kind, Object.values(percentiles?.values ?? {}), ascRank, stats.count);
  const counted = await search(client, index, { query, size: 0, aggs: cutsAggs(key.field, cuts) });
  return { buckets: (counted.aggregations?.[PLAN_AGG.cuts] as { buckets: CutBucket[] } | undefined)?.buckets ?? [] };
}
