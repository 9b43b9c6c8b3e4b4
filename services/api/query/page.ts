import type { Client } from '@opensearch-project/opensearch';
import { type SearchResult, search } from '../../engine/search.ts';

/**
 * One page of a list endpoint: the seam between the pure query builders and the
 * engine. Builders say what matches (query), in what order (sort, ending with a
 * unique tie-breaker so pages never overlap or skip), and which facets to count;
 * this module decides how to fetch rows offset..offset+limit cheaply at any depth.
 */

export type SortKey = { field: string; order: 'asc' | 'desc' } | { score: true; order: 'asc' | 'desc' };

export interface PageRequest {
  query: Record<string, unknown>;
  /** The last key must be unique per document (the id), so the order is total. */
  sort: SortKey[];
  limit: number;
  offset: number;
  aggs?: Record<string, unknown>;
  /** Only these source fields are fetched (the row's fields), when given. */
  source?: readonly string[];
}

export function sortClause(sort: SortKey[]): Record<string, unknown>[] {
  return sort.map((k) => ('score' in k ? { _score: { order: k.order } } : { [k.field]: { order: k.order } }));
}

/** Today: a plain from+size page. The deep-page plan replaces the body of this function, not its callers. */
export async function readPage<T>(client: Client, index: string, req: PageRequest): Promise<SearchResult<T>> {
  return search<T>(client, index, {
    query: req.query,
    sort: sortClause(req.sort),
    from: req.offset,
    size: req.limit,
    track_total_hits: true,
    ...(req.source ? { _source: req.source } : {}),
    ...(req.aggs ? { aggs: req.aggs } : {}),
  });
}
