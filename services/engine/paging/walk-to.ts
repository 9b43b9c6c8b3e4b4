import { type SearchHit, search } from '../search.ts';
import { checkDeadline, type PageRead } from './context.ts';
import { afterBody } from './plan.ts';

/**
 * The fallback of last resort: walk to the offset with search_after in steps of the result
 * window, reading sort values only, then read the page. Exact for any order; it costs one
 * request per window of rows skipped, still bounded by the page deadline.
 */
export async function walkTo<T>(read: PageRead): Promise<SearchHit<T>[]> {
  const { client, index, req, sort, size, options, deadline } = read;
  let after: (number | string)[] | null = null;
  let remaining = req.offset;
  while (remaining > 0) {
    checkDeadline(deadline);
    const step = Math.min(remaining, options.window);
    const body = { ...afterBody(req, sort, after, 0, step), _source: false };
    const hits = (await search<never>(client, index, body)).hits;
    if (hits.length === 0) return [];
    after = (hits[hits.length - 1]!.sort ?? []) as (number | string)[];
    remaining -= hits.length;
  }
  checkDeadline(deadline);
  return (await search<T>(client, index, afterBody(req, sort, after, 0, size))).hits;
}
