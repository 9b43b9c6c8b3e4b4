import type { Client } from '@opensearch-project/opensearch';
import { rollupAliasName } from '../../../../engine/dataset-aliases.ts';
import { byCount, type GroupHist, histName } from '../../../../engine/rollups/group-hist.ts';
import { BUILT_KIND } from '../../../../engine/rollups/rollup-docs.ts';
import { search } from '../../../../engine/search.ts';
import type { Clause } from '../../../query/filters.ts';
import { containsMatch } from '../../../query/text.ts';
import { kind, readRollups, rollupScope } from '../rollup-read.ts';
import type { DetailBucket } from './map-row.ts';
import type { HolderGroupSort, HolderGroupsParams } from './params.ts';
import type { GroupSummary } from './rank-groups.ts';

/**
 * GET /analytics/holders from the group rollups kept at ingest (services/engine/rollups): one
 * document per group and county, and one per group for the whole index, each holding the
 * group's counts in that scope and the figures its orders sort on. A page is then a sorted
 * search of those documents (the engine orders, pages and counts the groups: total is the
 * hit count), and each row is made from its document's counts by the scan's own mapper.
 *
 * The scopes rollups answer: the whole index and one county, without a tax year. Any other
 * scope (several counties, a tax year) scans (read.ts), as does every scope when the index keeps
 * no rollups or a county and tax year in scope is marked stale (rollup-read.ts).
 */

type Level = { kind: 'groups_all' } | { kind: 'groups'; county: string };

export function groupLevel(p: Pick<HolderGroupsParams, 'county' | 'tax_year'>): Level | null {
  if (p.tax_year !== undefined) return null;
  if (p.county === undefined) return { kind: 'groups_all' };
  return p.county.length === 1 ? { kind: 'groups', county: p.county[0]! } : null;
}

/** Each order on the rollup fields, ending in the group id as the scan's orders do. */
const ORDERS: Record<HolderGroupSort, Record<string, 'asc' | 'desc'>> = {
  certificates_desc: { 'rollup.count': 'desc' },
  face_desc: { 'rollup.face_cents': 'desc' },
  median_rate_asc: { 'rollup.median_rate': 'asc' },
  name_asc: { 'rollup.name_key': 'asc' },
};
const sortOf = (sort: HolderGroupSort) => [ORDERS[sort], { 'rollup.group_id': 'asc' }];

/** The largest from + size of one search (the index's max_result_window); deeper pages walk to their offset. */
const WINDOW = 10_000;

interface GroupDoc {
  group_id: string;
  count: number;
  face_cents: number;
  hist: GroupHist;
}
interface Hit {
  _source: { rollup: GroupDoc };
  sort: unknown[];
}

function groupsOf(level: Level, query: string | undefined): Clause[] {
  const out: Clause[] = [kind(level.kind)];
  if (level.kind === 'groups') out.push({ term: { 'rollup.county_slug': level.county } });
  // The member spellings in scope, under the same key the certificates' holder_name.contains has.
  if (query !== undefined) out.push(containsMatch('rollup.members', query));
  return out;
}

export interface RolledGroups {
  page: { summary: GroupSummary; detail: DetailBucket }[];
  total: number;
}

/** The page from rollups, or null when they cannot answer this scope. `window`: the index's max_result_window. */
export async function groupsFromRollups(
  client: Client,
  prefix: string,
  params: HolderGroupsParams,
  sort: HolderGroupSort,
  window = WINDOW,
): Promise<RolledGroups | null> {
  const level = groupLevel(params);
  if (!level) return null;
  const index = rollupAliasName(prefix);
  const groups = groupsOf(level, params.query);
  const scope = rollupScope({ county: params.county });
  if (params.offset + params.limit > window) {
    if ((await readRollups(client, prefix, scope, {})) === null) return null;
    return deepPage(client, index, groups, params, sort, window);
  }
  // The page and the markers that say whether to trust it come from one search: one view of the index.
  const res = await search<never>(client, index, {
    from: params.offset,
    size: params.limit,
    track_total_hits: true,
    query: { bool: { filter: [{ terms: { 'rollup.kind': [level.kind, BUILT_KIND, 'stale'] } }] } },
    post_filter: { bool: { filter: groups } },
    sort: sortOf(sort),
    aggs: { built: { filter: kind(BUILT_KIND) }, stale: { filter: { bool: { filter: [kind('stale'), ...scope] } } } },
  });
  const a = res.aggregations as { built: { doc_count: number }; stale: { doc_count: number } };
  if (a.built.doc_count === 0 || a.stale.doc_count > 0) return null;
  return { page: (res.hits as unknown as Hit[]).map((h) => fromDocument(h._source.rollup)), total: res.total };
}

/** A page past the window: the sort keys up to the offset, a window at a time, then the page after them. */
async function deepPage(
  client: Client,
  index: string,
  groups: Clause[],
  params: HolderGroupsParams,
  sort: HolderGroupSort,
  window: number,
) {
  const query = { bool: { filter: groups } };
  let after: unknown[] | undefined;
  for (let skip = params.offset; skip > 0; ) {
    const size = Math.min(skip, window);
    const res = await search<never>(client, index, {
      size,
      query,
      sort: sortOf(sort),
      _source: false,
      track_total_hits: false,
      ...(after ? { search_after: after } : {}),
    });
    const hits = res.hits as unknown as Hit[];
    if (hits.length === 0) break;
    after = hits.at(-1)!.sort;
    skip -= hits.length;
    if (hits.length < size) break;
  }
  const res = await search<never>(client, index, {
    size: params.limit,
    query,
    sort: sortOf(sort),
    track_total_hits: true,
    ...(after ? { search_after: after } : {}),
  });
  const total = res.total;
  // Past the last group: an empty page with the exact total, as the scan gives.
  const reached = params.offset < total;
  return { page: reached ? (res.hits as unknown as Hit[]).map((h) => fromDocument(h._source.rollup)) : [], total };
}

/** A rollup document in the shapes of the scan's summary and page pass, for mapGroupRow. */
function fromDocument(d: GroupDoc): { summary: GroupSummary; detail: DetailBucket } {
  const h = d.hist;
  const buckets = (map: Record<string, number>) => ({
    buckets: byCount(map).map(([key, doc_count]) => ({ key, doc_count })),
    sum_other_doc_count: 0,
  });
  const years = Object.keys(h.years).map(Number);
  const name = histName(h);
  return {
    summary: { group_id: d.group_id, name, certificates: d.count, face_cents: d.face_cents, matched: true },
    detail: {
      key: d.group_id,
      doc_count: d.count,
      members: buckets(h.members),
      names: { buckets: name === '' ? [] : [{ key: name, doc_count: h.names[name]! }], sum_other_doc_count: 0 },
      statuses: {
        buckets: byCount(h.statuses).map(([key, doc_count]) => ({ key, doc_count, face: { value: (h.status_cents[key] ?? 0) / 100 } })),
      },
      rates: { buckets: byCount(h.rates).map(([key, doc_count]) => ({ key: Number(key), doc_count })), sum_other_doc_count: 0 },
      counties: buckets(h.counties),
      first: { value: Math.min(...years) },
      last: { value: Math.max(...years) },
      held: { value: h.held > 0 ? 1 : 0 },
    },
  };
}
