import type { Clause } from '../../../query/filters.ts';
import { scopeQuery } from './build-scan.ts';
import type { HolderGroupsParams } from './params.ts';

/**
 * The page pass of GET /analytics/holders: the figures only the page's groups need
 * (members, outstanding face, rates, counties, years), one search per chunk of
 * groups. The query keeps exactly these groups, so a terms aggregation sized to the
 * chunk returns every one of them from every shard (exact, not a top-n). Pure.
 */

/** Groups per search: keeps the buckets (members, 73 rates, 67 counties per group) under search.max_buckets. */
export const DETAIL_CHUNK = 100;

/** Spellings per group read at once; more is reported by sum_other_doc_count and refused as inexact. */
export const MAX_MEMBERS = 1000;

export function buildGroupDetails(params: HolderGroupsParams, groupIds: readonly string[]): Record<string, unknown> {
  const scope = scopeQuery(params) as { bool: { filter: Clause[] } };
  const all = (field: string, size: number) => ({ terms: { field, size, shard_size: size } });
  return {
    size: 0,
    query: { bool: { filter: [...scope.bool.filter, { terms: { holder_group_id: [...groupIds] } }] } },
    aggs: {
      groups: {
        terms: { field: 'holder_group_id', size: groupIds.length, shard_size: groupIds.length },
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
