import { BOUNDED_MAX, type Opening, type Page } from './context.ts';
import { atOrAfterCursor, beforeCursor, selectedBody } from './cursor.ts';
import type { Mark } from './marks.ts';
import { countOnly, type PagePlanOptions, type PageRequest, within } from './plan.ts';
import type { SortKey } from './sort.ts';

/**
 * A page a few rows past one placed before (a client paging on), read in one round trip
 * from the mark that earlier page left (marks.ts), and re-counted so it stays exact.
 */

/**
 * Whether a page at req.offset may be read from a mark as the plan that found the mark read its
 * own page: between the mark and the later position it knows (which the page must end before),
 * skipping at most skipMax documents or within one window of them. Without that later position
 * the final search would sort every document after the mark (60-80 ms at 1M against 8 ms): such
 * a page is placed from scratch, and leaves a mark of its own.
 */
export function reaches(mark: Mark, req: PageRequest, options: PagePlanOptions): boolean {
  const { end } = mark;
  if (req.offset + req.limit > end.before) return false;
  const skip = req.offset - mark.before;
  return skip <= options.skipMax || (end.before - mark.before <= BOUNDED_MAX * options.window && skip + req.limit <= options.window);
}

/**
 * The page from a mark in one msearch: the total, and the documents before the mark and its
 * end and those at or after each, counted again beside the page itself. The page is exact
 * when both positions still have their counts and still split the result in two (a document
 * that neither side matches, one without the order twin a cut is on, would shift every row
 * after it); null otherwise, and the caller places the page from scratch.
 */
export async function fromMark<T>(req: PageRequest, sort: readonly SortKey[], mark: Mark, opening: Opening<T>): Promise<Page<T> | null> {
  const counts: Record<string, unknown>[] = [countOnly(req.query)];
  for (const p of [mark, mark.end]) {
    const before = beforeCursor(p.cursor);
    const atOrAfter = atOrAfterCursor(p.cursor);
    if (!before || !atOrAfter) return null;
    counts.push(countOnly(within(req.query, [before])), countOnly(within(req.query, [atOrAfter])));
  }
  const answers = await opening([...counts, selectedBody(req, sort, mark.cursor, req.offset - mark.before, req.limit, mark.end.cursor)]);
  const total = answers[0]!.total;
  const held = [mark, mark.end].every(
    (p, i) => answers[1 + 2 * i]!.total === p.before && answers[1 + 2 * i]!.total + answers[2 + 2 * i]!.total === total,
  );
  if (!held) return null;
  return { total, hits: req.offset >= total ? [] : answers.at(-1)!.hits };
}
