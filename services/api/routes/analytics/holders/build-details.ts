import type { Clause } from '../../../query/filters.ts';
import { scopeQuery } from './build-scan.ts';
import type { HolderGroupsParams } from './params.ts';

/**
 * The page pass of GET /analytics/holders: the figures only the page's groups need
 * (members, outstanding face, rates, counties, years) in one search, a terms
 * aggregation over exactly the page's group ids with the figures beneath it. Pure.
 *
 * One search, not one per group in a multi-search: a multi-search of a page's groups ran
 * as many engine tasks side by side as the page had rows (500 at the old largest page),
 * taking every search thread from other clients for one credit. One search is one task
 * per shard, reads each certificate of the page's groups once, and is cancelled as one
 * when its time runs out (engine/search.ts).
 */

/** Spellings per group read at once; more is reported by sum_other_doc_count and refused as inexact. */
export const MAX_MEMBERS = 1000;

/**
 * Groups one details search may describe: the page's largest size (params.ts MAX_GROUP_PAGE).
 * Every group can have up to MAX_MEMBERS member buckets plus about 160 more (10 statuses,
 * 73 rates, 67 counties, one name), so 50 groups stay under search.max_buckets (65,535)
 * in the worst case: 50 x 1,161 = 58,050.
 */
export const MAX_DETAIL_GROUPS = 50;

export function buildGroupDetails(params: HolderGroupsParams, groupIds: readonly string[]): Record<string, unknown> {
  const scope = scopeQuery(params) as { bool: { filter: Clause[] } };
  const all = (field: string, size: number) => ({ terms: { field, size, shard_size: size } });
  const ids = [...groupIds];
  return {
    size: 0,
    // Each group's certificate count is its bucket's doc_count: exact, since every shard returns every listed group.
    track_total_hits: false,
    query: { bool: { filter: [...scope.bool.filter, { terms: { holder_group_id: ids } }] } },
    aggs: {
      groups: {
        terms: { field: 'holder_group_id', include: ids, size: ids.length, shard_size: ids.length, order: { _key: 'asc' } },
        // Bucket aggregations over few values instead of one filter per figure: each
        // document is read once per field (redeemed and outstanding from statuses, the
        // 0.25 share from rates).
        aggs: {
          members: { terms: { ...all('holder_name.raw', MAX_MEMBERS).terms, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
          names: { terms: { field: 'holder_group_name', size: 1, shard_size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
          statuses: { ...all('status', 10), aggs: { face: { sum: { field: 'face_amount' } } } },
          rates: all('interest_rate', 100),
          counties: all('county_slug', 100),
          first: { min: { field: 'tax_year' } },
          last: { max: { field: 'tax_year' } },
          held: { max: { field: 'county_held' } },
        },
      },
    },
  };
}
