import type { Client } from '@opensearch-project/opensearch';
import type { ListResult } from '../envelope.ts';
import { type PageRequest, readPage } from '../query/page.ts';

/** One list read: the builder's query and order, the client's window, and the route's mapper. */
export interface ListRead<D, R> {
  query: PageRequest['query'];
  sort: PageRequest['sort'];
  /** limit and offset as the parameters parsed them. */
  page: { limit: number; offset: number };
  /** The stored fields the mapper reads; nothing else is fetched. */
  source: readonly string[];
  /** Stored document -> public row: the route's one mapper. */
  map: (doc: D) => R;
}

/**
 * The page -> map step every engine-backed list shares between its builder and its
 * envelope: one page of the order (query/page.ts, any depth), each document mapped to
 * its public row, with the window and the exact total.
 */
export async function readList<D, R>(client: Client, index: string, list: ListRead<D, R>): Promise<ListResult<R>> {
  const { limit, offset } = list.page;
  const page = await readPage<D>(client, index, { query: list.query, sort: list.sort, limit, offset, source: list.source });
  return { rows: page.hits.map((hit) => list.map(hit._source)), limit, offset, total: page.total };
}
