import type { Client } from '@opensearch-project/opensearch';
import { loadMapping } from './mapping-file.ts';

/**
 * The saved searches as the engine keeps them: one percolator document per search, holding the
 * query the certificate search's own builder made of its filters (the API builds it; the worker
 * only percolates), so a certificate matches a saved search exactly when /matches would list it.
 *
 * The index takes the certificates index's settings and fields, since a percolated document is
 * read by that mapping, and is named for that mapping's version: a new version is a new, empty
 * index that the API fills again from the control plane when it starts (syncSavedSearches). The
 * control plane stays the truth: a query left behind here for a search deleted meanwhile is
 * dropped by whoever reads a match (it no longer has an owner).
 *
 * Beside the query, the counties, tax years and statuses the search names (none: any). They are
 * the search's own `terms` filters, so a search naming none of a document's county, year or status
 * cannot match it: a percolation asks only the searches whose scope meets its documents', and a
 * first load only those that can match its county and year. The engine's own candidate selection
 * does not prune these (each query is verified at about a millisecond), so this is what keeps a
 * county update's cost to the searches of that county.
 */

export interface SavedSearchQuery {
  id: string;
  /** Grows by one at each change of the search: a write of an older revision never replaces a newer one. */
  revision: number;
  query: Record<string, unknown>;
  /** The counties the search is limited to; undefined: every county. */
  counties?: readonly string[];
  taxYears?: readonly number[];
  statuses?: readonly string[];
}

/** The counties, tax years and statuses of the documents a percolation is about. */
export interface PercolationScope {
  counties: readonly string[];
  taxYears: readonly number[];
  statuses: readonly string[];
}

/** A bump of what the index holds beside the queries: a new index, filled again at the API's start. */
const LAYOUT = 2;

export function savedSearchIndexName(prefix: string): string {
  return `${prefix}saved-searches-v${loadMapping('certificates').version}-${LAYOUT}`;
}

/** Creates the index if it is missing; true when this call created it. */
export async function ensureSavedSearchIndex(client: Client, prefix: string, replicas: number): Promise<boolean> {
  const index = savedSearchIndexName(prefix);
  const mapping = loadMapping('certificates');
  const { refresh_interval: _searchInterval, ...indexSettings } = mapping.settings.index ?? {};
  const properties = (mapping.mappings as { properties: Record<string, unknown> }).properties;
  try {
    await client.indices.create({
      index,
      body: {
        settings: { ...mapping.settings, index: { ...indexSettings, number_of_replicas: replicas } },
        mappings: {
          dynamic: 'strict',
          properties: {
            ...properties,
            query: { type: 'percolator' },
            saved_search: {
              properties: {
                id: { type: 'keyword' },
                counties: { type: 'keyword' },
                tax_years: { type: 'integer' },
                statuses: { type: 'keyword' },
              },
            },
          },
        },
      },
    });
    return true;
  } catch (err) {
    if (errorType(err) !== 'resource_already_exists_exception') throw err;
    return false;
  }
}

function document(s: SavedSearchQuery) {
  return {
    query: s.query,
    saved_search: {
      id: s.id,
      ...(s.counties ? { counties: s.counties } : {}),
      ...(s.taxYears ? { tax_years: s.taxYears } : {}),
      ...(s.statuses ? { statuses: s.statuses } : {}),
    },
  };
}

function errorType(err: unknown): string | undefined {
  return (err as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
}

function isVersionConflict(err: unknown): boolean {
  return (err as { meta?: { statusCode?: number } }).meta?.statusCode === 409;
}

/**
 * Writes a search's query, searchable when this returns (a refresh: writes are rare, and the next
 * ingest must see it). An older revision than the one stored changes nothing.
 */
export async function putSavedSearchQuery(client: Client, prefix: string, s: SavedSearchQuery): Promise<void> {
  try {
    await client.index({
      index: savedSearchIndexName(prefix),
      id: s.id,
      version: s.revision,
      version_type: 'external_gte',
      refresh: true,
      body: document(s),
    });
  } catch (err) {
    if (!isVersionConflict(err)) throw err;
  }
}

/** Removes a search's query; one already gone is no error. */
export async function deleteSavedSearchQuery(client: Client, prefix: string, id: string): Promise<void> {
  await client.delete({ index: savedSearchIndexName(prefix), id, refresh: true }, { ignore: [404] });
}

/** Writes many queries in one bulk request (a rebuild), each only over an older revision. */
export async function putSavedSearchQueries(client: Client, prefix: string, searches: readonly SavedSearchQuery[]): Promise<void> {
  if (searches.length === 0) return;
  const index = savedSearchIndexName(prefix);
  const body = searches.flatMap((s) => [
    { index: { _index: index, _id: s.id, version: s.revision, version_type: 'external_gte' } },
    document(s),
  ]);
  const res = await client.bulk({ body, refresh: true });
  const failed = (res.body.items as { index: { status: number; error?: { reason?: string } } }[]).filter(
    (i) => i.index.error && i.index.status !== 409,
  );
  if (failed.length > 0) throw new Error(`saved-search queries refused by the engine: ${failed[0]!.index.error?.reason ?? 'unknown'}`);
}

/** How many saved-search queries the engine holds (0 when the index does not exist yet). */
export async function countSavedSearchQueries(client: Client, prefix: string): Promise<number> {
  const res = await client.count({ index: savedSearchIndexName(prefix) }, { ignore: [404] });
  return res.statusCode === 404 ? 0 : (res.body as { count: number }).count;
}

const PAGE = 10_000;

interface Hit {
  _source?: { query: Record<string, unknown>; saved_search: { id: string } };
  fields?: { _percolator_document_slot?: number[] };
  sort: [string];
}

/**
 * Every hit of a search of the saved-search index, a page at a time in the order of the searches'
 * ids (search_after on the id: no window, however many searches). A missing index has none.
 */
async function* pagesById(client: Client, prefix: string, body: Record<string, unknown>, size = PAGE): AsyncIterable<Hit[]> {
  let after: [string] | undefined;
  for (;;) {
    const res = await client.search(
      {
        index: savedSearchIndexName(prefix),
        body: { size, sort: [{ 'saved_search.id': 'asc' }], ...(after ? { search_after: after } : {}), ...body },
      },
      { ignore: [404] },
    );
    if (res.statusCode === 404) return;
    const hits = res.body.hits.hits as unknown as Hit[];
    if (hits.length > 0) yield hits;
    if (hits.length < size) return;
    after = hits.at(-1)!.sort;
  }
}

/** A search that names none of `field`, or names one of the values. */
function anyOrOneOf(field: string, values: readonly (string | number)[]) {
  return {
    bool: { should: [{ terms: { [field]: [...values] } }, { bool: { must_not: { exists: { field } } } }], minimum_should_match: 1 },
  };
}

/**
 * The saved searches each document matches (among those whose scope meets `scope`, and only the
 * searches `only` names when given): search id -> the positions (slots) in `docs` of the documents
 * it matches. Every matching search, however many.
 */
export async function percolate(
  client: Client,
  prefix: string,
  docs: readonly object[],
  scope: PercolationScope,
  only?: readonly string[],
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (docs.length === 0 || only?.length === 0) return out;
  const query = {
    bool: {
      filter: [
        ...(only ? [{ terms: { 'saved_search.id': [...only] } }] : []),
        anyOrOneOf('saved_search.counties', scope.counties),
        anyOrOneOf('saved_search.tax_years', scope.taxYears),
        anyOrOneOf('saved_search.statuses', scope.statuses),
        { percolate: { field: 'query', documents: [...docs] } },
      ],
    },
  };
  // Pages of 1,000: a hit carries the slots of every document it matches, thousands for a broad search.
  for await (const hits of pagesById(client, prefix, { _source: false, query }, 1000))
    for (const hit of hits) out.set(hit.sort[0], hit.fields?._percolator_document_slot ?? []);
  return out;
}

/** The searches that can match certificates of this county and tax year, with their queries, in id order. */
export async function* savedSearchQueriesFor(
  client: Client,
  prefix: string,
  countySlug: string,
  taxYear: number,
): AsyncIterable<{ id: string; query: Record<string, unknown> }[]> {
  const query = {
    bool: { filter: [anyOrOneOf('saved_search.counties', [countySlug]), anyOrOneOf('saved_search.tax_years', [taxYear])] },
  };
  for await (const hits of pagesById(client, prefix, { _source: ['query'], query }, 1000))
    yield hits.map((h) => ({ id: h.sort[0], query: h._source!.query }));
}

/** The ids of every stored query, a page at a time. */
export async function* savedSearchIds(client: Client, prefix: string): AsyncIterable<string[]> {
  for await (const hits of pagesById(client, prefix, { _source: false })) yield hits.map((h) => h.sort[0]);
}

/** A stored search as the worker reads it back: its query and the counties, tax years and statuses it names. */
export interface StoredSavedSearch {
  id: string;
  query: Record<string, unknown>;
  counties?: readonly string[];
  taxYears?: readonly number[];
  statuses?: readonly string[];
}

/**
 * What the index holds now, in a word: its uuid and its primaries' highest sequence numbers, which
 * every write and delete moves. Equal words mean nothing was written in between. Null: no index.
 */
export async function savedSearchIndexState(client: Client, prefix: string): Promise<string | null> {
  const index = savedSearchIndexName(prefix);
  const res = await client.indices.stats({ index, metric: 'docs', level: 'shards' }, { ignore: [404] });
  if (res.statusCode === 404) return null;
  type Copy = { routing: { primary: boolean }; seq_no: { max_seq_no: number } };
  const stats = (res.body as { indices: Record<string, { uuid: string; shards: Record<string, Copy[]> }> }).indices[index];
  if (!stats) return null;
  const primaries = Object.entries(stats.shards)
    .map(([shard, copies]) => `${shard}:${copies.find((c) => c.routing.primary)?.seq_no.max_seq_no ?? 'none'}`)
    .sort();
  return `${stats.uuid}/${primaries.join(',')}`;
}

/**
 * Every stored search with its query, after a refresh, so every write the index had counted
 * before this call is in what it reads.
 */
export async function* storedSavedSearches(client: Client, prefix: string): AsyncIterable<StoredSavedSearch[]> {
  await client.indices.refresh({ index: savedSearchIndexName(prefix) }, { ignore: [404] });
  type Source = {
    query: Record<string, unknown>;
    saved_search: { id: string; counties?: string[]; tax_years?: number[]; statuses?: string[] };
  };
  for await (const hits of pagesById(client, prefix, { _source: ['query', 'saved_search'] }, 1000))
    yield hits.map((h) => {
      const { query, saved_search: s } = h._source as unknown as Source;
      return {
        id: s.id,
        query,
        ...(s.counties ? { counties: s.counties } : {}),
        ...(s.tax_years ? { taxYears: s.tax_years } : {}),
        ...(s.statuses ? { statuses: s.statuses } : {}),
      };
    });
}
