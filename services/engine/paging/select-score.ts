import { type SearchHit, search } from '../search.ts';
import { checkDeadline, type FieldKey, MAX_ROUNDS, type PageRead } from './context.ts';
import { type CutBucket, type KeyStats, locate } from './number-cuts.ts';
import { afterBody, PLAN_AGG, type PageRequest } from './plan.ts';
import { scoreCutOf, scoreCuts, scoreCutsAggs, startOf, tieQuery } from './score-cuts.ts';
import { select } from './select-field.ts';
import { walkTo } from './walk-to.ts';

/**
 * The rows at positions offset..offset+size-1 of a relevance order (score first,
 * then field keys ending with the id), found with exact counts of scores
 * (score-cuts.ts). A group of equal scores too large to skip is handed to the
 * field plan on a filter matching exactly that score.
 */
export async function selectByScore<T>(read: PageRead, firstAggs: Record<string, unknown> | undefined): Promise<SearchHit<T>[]> {
  const { client, index, req, sort, kinds: restKinds, size, options, deadline } = read;
  const rest = sort.slice(1) as FieldKey[];
  const start = rest.map((k, i) => startOf(restKinds[i]!, k.order));
  const t = req.offset;
  const stats = firstAggs?.[PLAN_AGG.stats] as KeyStats | undefined;
  const percentiles = firstAggs?.[PLAN_AGG.percentiles] as { values: Record<string, number | null> } | undefined;
  if (!stats || stats.min === null || stats.max === null) throw new Error('page plan: no score statistics');
  let bracket: { min: number; max: number } | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    checkDeadline(deadline);
    const cuts = scoreCuts(Object.values(percentiles?.values ?? {}), t, stats.count, bracket);
    const counted = await search(client, index, { query: req.query, size: 0, aggs: scoreCutsAggs(cuts) });
    const buckets = (counted.aggregations?.[PLAN_AGG.cuts] as { buckets: CutBucket[] } | undefined)?.buckets ?? [];
    const at = locate(buckets, t, 'desc');
    if (!at) break;
    if (t - at.before <= options.skipMax) {
      const v = scoreCutOf(at);
      checkDeadline(deadline);
      const skip = t - at.before;
      const page = await search<T>(client, index, afterBody(req, sort, v === null ? null : [v, ...start], skip, size));
      return page.hits.slice(skip);
    }
    if (at.min !== at.max) {
      bracket = { min: at.min, max: at.max };
      continue;
    }
    // A group of equal scores: its rows in the order of the later keys, then (if the page runs past it) the rows after it.
    const v = at.min;
    const inGroup = Math.min(size, at.count - (t - at.before));
    const tie: PageRequest = { ...req, query: tieQuery(req.query, v), sort: rest, offset: t - at.before, limit: inGroup };
    const hits = await select<T>({ ...read, req: tie, sort: rest, size: inGroup }, undefined);
    if (hits.length < size && hits.length === inGroup) {
      const last = hits[hits.length - 1]?.sort ?? [];
      checkDeadline(deadline);
      const next = await search<T>(client, index, afterBody(req, sort, [v, ...(last as (number | string)[])], 0, size - inGroup));
      hits.push(...next.hits);
    }
    return hits;
  }
  // Meant to be unreachable (every round isolates a score or narrows the bracket), but a score the
  // cut aggregation computes can differ in its last bit from the score the sort sees: then the
  // page is walked to, slower but exact, never refused.
  return walkTo<T>(read);
}
