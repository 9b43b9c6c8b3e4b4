import type { Page } from '../../engine/paging/context.ts';
import type { PageRequest } from '../../engine/paging/plan.ts';
import { type PagingDeps, readPage, readPageWith } from '../../engine/paging/read-page.ts';
import type { SearchResult } from '../../engine/search.ts';
import type { ListResult } from '../envelope.ts';

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
 * envelope: one page of the order (engine/paging/read-page.ts, any depth), each document mapped to
 * its public row, with the window and the exact total.
 */
export async function readList<D, R>(deps: PagingDeps, index: string, list: ListRead<D, R>): Promise<ListResult<R>> {
  return rowsOf(list, await readPage<D>(deps, index, pageRequest(list)));
}

/** readList, and more searches sent beside the page's first request (readPageWith). */
export async function readListWith<D, R>(
  deps: PagingDeps,
  index: string,
  list: ListRead<D, R>,
  beside: Record<string, unknown>[],
): Promise<{ result: ListResult<R>; beside: SearchResult<never>[] }> {
  const read = await readPageWith<D>(deps, index, pageRequest(list), beside);
  return { result: rowsOf(list, read.page), beside: read.beside };
}

function pageRequest<D, R>(list: ListRead<D, R>): PageRequest {
  return { query: list.query, sort: list.sort, limit: list.page.limit, offset: list.page.offset, source: list.source };
}

function rowsOf<D, R>(list: ListRead<D, R>, page: Page<D>): ListResult<R> {
  const { limit, offset } = list.page;
  return { rows: page.hits.map((hit) => list.map(hit._source)), limit, offset, total: page.total };
}
