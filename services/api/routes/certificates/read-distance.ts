import { DEFAULT_PAGE_OPTIONS } from '../../../engine/paging/plan.ts';
import type { PagingDeps } from '../../../engine/paging/read-page.ts';
import { multiSearch, type SearchResult } from '../../../engine/search.ts';
import type { ListResult } from '../../envelope.ts';
import { InvalidParamsError } from '../../errors.ts';
import type { Clause } from '../../query/filters.ts';
import type { ListRead } from '../read-list.ts';

/**
 * A page in order of distance (sort=distance_asc). The distance is computed per document from
 * the request's point, so the page engine's counted cuts on a stored key (engine/paging) do not
 * apply: the page is one from+size search, exact but bounded by the index's result window. Past
 * it the answer is a 400 naming offset (never a wrong page): a caller who needs more narrows the
 * radius or the filters, or pages a stored order.
 */
export const DISTANCE_WINDOW = DEFAULT_PAGE_OPTIONS.window;

export async function readDistancePage<D, R>(
  deps: PagingDeps,
  index: string,
  list: ListRead<D, R>,
  sort: Clause[],
  beside: Clause[],
): Promise<{ result: ListResult<R>; beside: SearchResult<never>[] }> {
  const { limit, offset } = list.page;
  if (offset + limit > DISTANCE_WINDOW)
    throw new InvalidParamsError([
      {
        parameter: 'offset',
        message: `sort=distance_asc pages within the nearest ${DISTANCE_WINDOW.toLocaleString('en-US')} certificates: offset + limit must be at most ${DISTANCE_WINDOW} (given ${offset} + ${limit}); narrow radius or the filters, or use another sort`,
      },
    ]);
  const page = { query: list.query, sort, from: offset, size: limit, track_total_hits: true, _source: list.source };
  const [found, ...others] = await multiSearch<D>(deps.opensearch, index, [page, ...beside]);
  return {
    result: { rows: found!.hits.map((hit) => list.map(hit._source)), limit, offset, total: found!.total },
    beside: others as SearchResult<never>[],
  };
}
