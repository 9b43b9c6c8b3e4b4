import type { Clause } from '../../../query/filters.ts';
import { containsMatch } from '../../../query/text.ts';
import type { HolderGroupsParams } from './params.ts';
import { MAX_GROUPS } from '../../../query/group-terms.ts';

/**
 * The group-level pass of GET /analytics/holders: every group in scope, exactly,
 * with only what the order needs (the target: p50 under 200 ms at 1,000,000
 * certificates; see docs/decisions.md, "Holder groups read exactly"). Pure: no client, clock or config.
 *
 * The fast path is one terms aggregation sized past every group (MAX_GROUPS, shard
 * size the same), so every shard returns all its groups: the read checks
 * sum_other_doc_count and doc_count_error_upper_bound are 0 and otherwise falls back
 * to composite aggregations paged by after_key, which are exact at any size. name_asc
 * needs every group's name, which only the composite (group, name) pairs give exactly.
 */

const wantsFace = (params: HolderGroupsParams) => params.sort === 'face_desc';

/**
 * The slices the terms scan runs in: for face_desc the four id slices side by side (the
 * face sum per group makes the scan CPU-bound: 118 ms whole, 78 ms sliced at 1,000,000
 * certificates), otherwise one whole read (40 ms either way, so one request is cheaper).
 */
export function groupTermsSlices(params: HolderGroupsParams): readonly (IdSlice | undefined)[] {
  return wantsFace(params) ? ID_SLICES : [undefined];
}

/** Every group's certificate count (and face sum for face_desc); with query, the groups with a matching member. */
export function buildGroupTerms(params: HolderGroupsParams, slice?: IdSlice): Record<string, unknown> {
  const groups = { terms: { field: 'holder_group_id', size: MAX_GROUPS, shard_size: MAX_GROUPS } };
  return {
    size: 0,
    query: scopeQuery(params, slice),
    aggs: {
      groups: wantsFace(params) ? { ...groups, aggs: { face: { sum: { field: 'face_amount' } } } } : groups,
      ...(params.query !== undefined ? { matched: { filter: containsMatch('holder_name.contains', params.query), aggs: { groups } } } : {}),
    },
  };
}

/**
 * (group, name) pairs per composite page. Each page reads every certificate of its
 * slice again, so the page is as large as search.max_buckets (65,535) allows: the
 * pairs plus, with query, one filter bucket each.
 */
export const SCAN_PAGE = 30000;

/** (group, rate) pairs per composite page: no sub-aggregation, so nearly search.max_buckets. */
export const RATE_SCAN_PAGE = 60000;

/**
 * The composite scans run as disjoint slices of the group ids, side by side: each
 * slice reads only its own certificates, usually in one page, and the engine spreads
 * the slices over its search threads. Ids are grp_ and 20 hex digits of a hash, so
 * cutting at the first hex digit gives slices of about equal size; the first and last
 * slices are open-ended, so every id falls in exactly one slice whatever its form.
 * Measured at 1,000,000 certificates (21,000 groups, 125,000 (group, rate) pairs) on a
 * busy 2-core box: the rate scan 264-321 ms as sequential pages of 60,000, 150-250 ms
 * as four slices (13 pages of 10,000 before: 840 ms); the name scan 182-210 ms in one
 * page of 30,000, 114-210 ms as four slices (five pages of 5,000 before: 400 ms).
 */
export type IdSlice = { gte?: string; lt?: string };
export const ID_SLICES: readonly IdSlice[] = [
  { lt: 'grp_4' },
  { gte: 'grp_4', lt: 'grp_8' },
  { gte: 'grp_8', lt: 'grp_c' },
  { gte: 'grp_c' },
];

export type AfterKey = Record<string, string | number> | undefined;

/** The certificates in scope: the county and tax year filters (a group's figures count only these); optionally one slice of group ids. */
export function scopeQuery(params: Pick<HolderGroupsParams, 'county' | 'tax_year'>, slice?: IdSlice): Clause {
  const filter: Clause[] = [slice ? { range: { holder_group_id: slice } } : { exists: { field: 'holder_group_id' } }];
  if (params.county) filter.push({ terms: { county_slug: params.county } });
  if (params.tax_year) filter.push({ terms: { tax_year: params.tax_year } });
  return { bool: { filter } };
}

/** One page of a composite scan over (group, `second`) pairs of one slice, exact at any size. */
function pairScan(
  params: HolderGroupsParams,
  slice: IdSlice,
  after: AfterKey,
  second: Record<string, unknown>,
  size: number,
  aggs?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    size: 0,
    query: scopeQuery(params, slice),
    aggs: {
      pairs: {
        composite: { size, sources: [{ group: { terms: { field: 'holder_group_id' } } }, second], ...(after ? { after } : {}) },
        ...(aggs ? { aggs } : {}),
      },
    },
  };
}

/** One page of (group, display name) pairs with count, face sum and, with query, the member-name match. */
export function buildGroupScan(params: HolderGroupsParams, slice: IdSlice, after: AfterKey): Record<string, unknown> {
  const aggs: Record<string, unknown> = { face: { sum: { field: 'face_amount' } } };
  // Case, punctuation, spacing and "&" versus "and" never decide a match (the holder filter's rule).
  if (params.query !== undefined) aggs.matches = { filter: containsMatch('holder_name.contains', params.query) };
  return pairScan(params, slice, after, { name: { terms: { field: 'holder_group_name' } } }, SCAN_PAGE, aggs);
}

/**
 * For median_rate_asc only: every (group, rate) pair's exact count, so each group's
 * median is known before the page is chosen. Rates take at most 73 values.
 */
export function buildRateScan(params: HolderGroupsParams, slice: IdSlice, after: AfterKey): Record<string, unknown> {
  return pairScan(params, slice, after, { rate: { terms: { field: 'interest_rate' } } }, RATE_SCAN_PAGE);
}
