import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../../../config.ts';
import { aliasName } from '../../../../domain/datasets.ts';
import type { Registry } from '../../../../domain/registry.ts';
import { search } from '../../../../engine/search.ts';
import { isDatasetEmpty } from '../../../coverage.ts';
import type { ListResult } from '../../../envelope.ts';
import { assertCounties } from '../../certificates/read.ts';
import { buildGroupDetails } from './build-details.ts';
import {
  type AfterKey,
  buildGroupScan,
  buildGroupTerms,
  buildRateScan,
  groupTermsSlices,
  scopeQuery,
  ID_SLICES,
  type IdSlice,
  RATE_SCAN_PAGE,
  SCAN_PAGE,
} from './build-scan.ts';
import { type DetailBucket, mapGroupRow } from './map-row.ts';
import { DEFAULT_HOLDER_GROUP_SORT, type HolderGroupSort, type HolderGroupsParams } from './params.ts';
import { foldGroups, foldGroupTerms, type GroupBucket, type GroupSummary, mediansOf, orderGroups, type PairBucket } from './rank-groups.ts';
import type { HolderGroupRow } from './row.ts';
import { InexactAggregationError } from '../../../query/exact-terms.ts';
import { assertScopeWithin } from '../scope-cap.ts';
import type { AnalyticsPath } from '../rollup-read.ts';
import { groupsFromRollups } from './from-rollups.ts';

export interface HolderGroupsDeps {
  opensearch: Client;
  config: Pick<Config, 'INDEX_PREFIX' | 'HOLDER_GROUPS_MAX_SCOPE'>;
  registry: Pick<Registry, 'county'>;
}

interface TermsAgg<B> {
  buckets: B[];
  sum_other_doc_count: number;
  doc_count_error_upper_bound?: number;
}

/** A terms aggregation that returned every bucket of every shard: nothing left out, no count uncertain. */
const complete = (agg: TermsAgg<unknown>) => agg.sum_other_doc_count === 0 && (agg.doc_count_error_upper_bound ?? 0) === 0;

/** Every bucket of a composite aggregation, page after page (exact on any number of shards). */
async function allPairs(
  client: Client,
  index: string,
  body: (after: AfterKey) => Record<string, unknown>,
  pageSize: number,
): Promise<PairBucket[]> {
  const out: PairBucket[] = [];
  let after: AfterKey;
  for (;;) {
    const res = await search<never>(client, index, body(after));
    const pairs = (res.aggregations as { pairs?: { buckets: PairBucket[]; after_key?: AfterKey } } | undefined)?.pairs;
    if (!pairs || pairs.buckets.length === 0) return out;
    out.push(...pairs.buckets);
    // A page short of its size is the last: the composite fills every page while buckets remain.
    if (!pairs.after_key || pairs.buckets.length < pageSize) return out;
    after = pairs.after_key;
  }
}

/** Every slice's composite pairs, the slices read side by side (build-scan.ts ID_SLICES). */
async function allSlices(
  client: Client,
  index: string,
  body: (slice: IdSlice, after: AfterKey) => Record<string, unknown>,
  pageSize: number,
): Promise<PairBucket[]> {
  const slices = await Promise.all(ID_SLICES.map((slice) => allPairs(client, index, (after) => body(slice, after), pageSize)));
  return slices.flat();
}

/** The composite (group, name) pairs: exact at any size, and the only source of every group's name. */
async function scanPairs(client: Client, index: string, params: HolderGroupsParams): Promise<GroupSummary[]> {
  return foldGroups(
    await allSlices(client, index, (slice, after) => buildGroupScan(params, slice, after), SCAN_PAGE),
    params.query !== undefined,
  );
}

/** Every group in scope with the figures its order needs. */
async function scanGroups(client: Client, index: string, params: HolderGroupsParams): Promise<GroupSummary[]> {
  if (params.sort === 'name_asc') return scanPairs(client, index, params);
  const answers = await Promise.all(groupTermsSlices(params).map((slice) => search<never>(client, index, buildGroupTerms(params, slice))));
  const slices = answers.map((res) => res.aggregations as { groups: TermsAgg<GroupBucket>; matched?: { groups: TermsAgg<GroupBucket> } });
  // More groups than one terms aggregation holds: the composite pages instead.
  if (slices.some((aggs) => !complete(aggs.groups) || (aggs.matched && !complete(aggs.matched.groups))))
    return scanPairs(client, index, params);
  const matched =
    params.query !== undefined ? new Set(slices.flatMap((aggs) => aggs.matched?.groups.buckets.map((b) => b.key) ?? [])) : null;
  return foldGroupTerms(
    slices.flatMap((aggs) => aggs.groups.buckets),
    matched,
  );
}

/** The page pass: every group of the page in one search (build-details.ts). */
async function details(
  client: Client,
  index: string,
  params: HolderGroupsParams,
  page: GroupSummary[],
): Promise<Map<string, DetailBucket>> {
  const ids = page.map((g) => g.group_id);
  const answer = await search<never>(client, index, buildGroupDetails(params, ids));
  const groups = (answer.aggregations as { groups?: TermsAgg<DetailBucket> } | undefined)?.groups;
  const out = new Map<string, DetailBucket>();
  // A group with no certificate in scope has no bucket: not a group of this answer (the scan
  // listed it, so only a concurrent ingest gets here).
  for (const g of groups?.buckets ?? []) {
    // Figures from a partial list would mislead: refuse (a 500) rather than answer them.
    const names = g.names.doc_count_error_upper_bound ?? 0;
    if (!complete(g.members) || !complete(g.rates) || !complete(g.counties) || names !== 0)
      throw new InexactAggregationError(
        `details of holder group ${g.key}`,
        'more member spellings, rates or counties than one read returns',
      );
    out.set(g.key, g);
  }
  return out;
}

/**
 * The most certificates one call of this order may read. median_rate_asc reads every
 * (group, rate) pair of its scope in composite pages, about twice the engine CPU per
 * certificate of the other orders (bench:fairness: 620 ms at 100,000 certificates of a
 * 1,000,000 set against 260 ms for name_asc), so its scope is half the cap.
 */
export function scopeCap(cap: number, sort: HolderGroupSort): number {
  return sort === 'median_rate_asc' ? Math.floor(cap / 2) : cap;
}

/**
 * GET /analytics/holders and the MCP tool search_holder_groups: the page from the group rollups
 * when they answer the scope (from-rollups.ts), else from one exact scan of every group in
 * scope, filtered by member name, ordered in the app, then the page's groups' details.
 * pagination.total is the number of groups. The scope cap bounds scans only.
 */
export async function searchHolderGroups(
  deps: HolderGroupsDeps,
  params: HolderGroupsParams,
): Promise<ListResult<HolderGroupRow> & { path: AnalyticsPath }> {
  assertCounties(deps.registry, 'county', params.county);
  const rolled = await holderGroupsByRollups(deps, params);
  const { rows, total } = rolled ?? (await holderGroupsByScan(deps, params));
  const result = { rows, limit: params.limit, offset: params.offset, total, path: rolled ? ('rollup' as const) : ('scan' as const) };
  const notYetIngested = total === 0 && (await isDatasetEmpty(deps.opensearch, aliasName(deps.config.INDEX_PREFIX, 'certificates')));
  return notYetIngested ? { ...result, notYetIngested } : result;
}

export interface GroupsPage {
  rows: HolderGroupRow[];
  total: number;
}

const rowsOf = (page: { summary: GroupSummary; detail: DetailBucket }[]) => page.map((g) => mapGroupRow(g.summary, g.detail));

/** The page from the group rollups, or null when they cannot answer the scope (from-rollups.ts). */
export async function holderGroupsByRollups(
  deps: HolderGroupsDeps,
  params: HolderGroupsParams,
  window?: number,
): Promise<GroupsPage | null> {
  const sort = params.sort ?? DEFAULT_HOLDER_GROUP_SORT;
  const rolled = await groupsFromRollups(deps.opensearch, deps.config.INDEX_PREFIX, params, sort, window);
  return rolled && { rows: rowsOf(rolled.page), total: rolled.total };
}

/** The page from the certificates: within the scope cap, exact at any size. */
export async function holderGroupsByScan(deps: HolderGroupsDeps, params: HolderGroupsParams): Promise<GroupsPage> {
  const index = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  const { page, total } = await scanHolderGroups(deps, index, params, params.sort ?? DEFAULT_HOLDER_GROUP_SORT);
  return { rows: rowsOf(page), total };
}

/** Every group in scope from the certificates, ordered; the page's details in one more search. */
async function scanHolderGroups(deps: HolderGroupsDeps, index: string, params: HolderGroupsParams, sort: HolderGroupSort) {
  await assertScopeWithin(deps.opensearch, index, scopeQuery(params), scopeCap(deps.config.HOLDER_GROUPS_MAX_SCOPE, sort), [
    'county',
    'tax_year',
  ]);
  const rateScan = () => allSlices(deps.opensearch, index, (slice, after) => buildRateScan(params, slice, after), RATE_SCAN_PAGE);
  // median_rate_asc without a member-name match needs only the (group, rate) counts: every group
  // in scope and its certificates are their sums, so the group scan would read the scope twice.
  const fromRates = sort === 'median_rate_asc' && params.query === undefined;
  const [scanned, rates] = fromRates
    ? await rateScan().then((pairs) => [foldGroups(pairs, false), pairs] as const)
    : await Promise.all([scanGroups(deps.opensearch, index, params), sort === 'median_rate_asc' ? rateScan() : Promise.resolve([])]);
  let groups = scanned.filter((g) => g.matched);
  if (sort === 'median_rate_asc') {
    const medians = mediansOf(rates);
    groups = groups.map((g) => ({ ...g, median_rate: medians.get(g.group_id) ?? 0 }));
  }
  const summaries = orderGroups(groups, sort).slice(params.offset, params.offset + params.limit);
  const found = summaries.length > 0 ? await details(deps.opensearch, index, params, summaries) : new Map<string, DetailBucket>();
  const page = summaries.flatMap((summary) => {
    const detail = found.get(summary.group_id);
    return detail ? [{ summary, detail }] : [];
  });
  return { page, total: groups.length };
}
