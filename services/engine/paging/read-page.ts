import type { Client } from '@opensearch-project/opensearch';
import { multiSearch, type SearchResult, search } from '../search.ts';
import type { PagingCaches } from './caches.ts';
import { checkDeadline, type Opening, PAGE_DEADLINE_MS, type Page, type PageRead } from './context.ts';
import { fromMark, reaches } from './from-mark.ts';
import { type Mark, PageMarks } from './marks.ts';
import { keyAggs } from './number-cuts.ts';
import { countBody, DEFAULT_PAGE_OPTIONS, deepPlan, type PagePlanOptions, type PageRequest, reversedBody, shallowBody } from './plan.ts';
import { checkSortRules, sortKinds } from './rules.ts';
import { scoreStatsAggs } from './score-cuts.ts';
import { select } from './select-field.ts';
import { selectByScore } from './select-score.ts';
import { effectiveSort, isScoreKey } from './sort.ts';
import { twinsOf } from './string-cuts.ts';

/**
 * One page of a list endpoint: the seam between the pure query builders and the
 * engine. Builders say what matches (query) and in what order (sort, ending with a
 * unique tie-breaker so pages never overlap or skip: the rules are rules.ts);
 * this module decides which strategy fetches rows offset..offset+limit cheaply at
 * any depth (the plan and its reasons: plan.ts): one plain request, a page from a
 * mark (from-mark.ts), a read from the far end, or a selection by counted cuts on a
 * field order (select-field.ts) or on scores (select-score.ts).
 */

/** The engine client pages are read from, and the caches those reads share (caches.ts). */
export interface PagingDeps {
  opensearch: Client;
  paging: PagingCaches;
}

/**
 * Rows offset..offset+limit-1 of the request's order, with the exact total. The sort's
 * rules (rules.ts) are checked first, its field types when a deep page reads them.
 */
export async function readPage<T>(
  deps: PagingDeps,
  index: string,
  req: PageRequest,
  options: PagePlanOptions = DEFAULT_PAGE_OPTIONS,
): Promise<Page<T>> {
  const client = deps.opensearch;
  return pageOf<T>(deps, index, req, options, async (bodies) =>
    bodies.length === 1 ? [await search<T>(client, index, bodies[0]!)] : multiSearch<T>(client, index, bodies),
  );
}

/**
 * readPage, and one more search sent in the same msearch as the page's first request (the
 * page itself, or a deep page's count). A list's facet counts ride along this way instead of
 * taking an engine round trip of their own: on our machine a round trip costs the API process
 * about as much CPU as everything else a shallow page needs.
 */
export async function readPageWith<T>(
  deps: PagingDeps,
  index: string,
  req: PageRequest,
  beside: Record<string, unknown>[],
  options: PagePlanOptions = DEFAULT_PAGE_OPTIONS,
): Promise<{ page: Page<T>; beside: SearchResult<never>[] }> {
  let answers: SearchResult<never>[] | undefined;
  const page = await pageOf<T>(deps, index, req, options, async (bodies) => {
    // Only the first opening carries them: a second one (after a stale mark) needs only its own answers.
    const sent = answers === undefined ? beside : [];
    const all = await multiSearch<T>(deps.opensearch, index, [...bodies, ...sent]);
    answers ??= all.splice(bodies.length) as SearchResult<never>[];
    return all;
  });
  // pageOf sends an opening request before it can return (a second one only after a stale mark).
  return { page, beside: answers! };
}

/** The page read; `opening` sends its first request (a shallow page, a page from a mark, or a deep page's count). */
async function pageOf<T>(
  deps: PagingDeps,
  index: string,
  req: PageRequest,
  options: PagePlanOptions,
  opening: Opening<T>,
): Promise<Page<T>> {
  checkSortRules(req.sort);
  const sort = effectiveSort(req.sort, req.query);
  if (req.offset + req.limit <= options.window) return (await opening([shallowBody(req, sort)]))[0]!;

  // Deep: the total and the first key's distribution in one request, then the plan.
  const { opensearch: client, paging } = deps;
  const deadline = Date.now() + PAGE_DEADLINE_MS;
  const byScore = sort.length > 0 && isScoreKey(sort[0]!);
  const types = await paging.fieldTypes.ofSort(client, index, sort);
  const kinds = sortKinds(sort, types);
  const first = sort[0];
  const firstKind = kinds[0];
  const statsAggs = byScore
    ? scoreStatsAggs()
    : first && !isScoreKey(first) && firstKind && firstKind !== 'string'
      ? keyAggs(first.field, firstKind)
      : {};
  // A page a few rows past one placed before (a client paging on): one round trip from its mark.
  const marks = byScore ? null : paging.marks;
  const markKey = PageMarks.keyOf(index, req.query, sort);
  const near = marks?.nearest(markKey, req.offset, (m) => reaches(m, req, options));
  if (near) {
    const page = await fromMark<T>(req, sort, near, opening);
    if (page) return page;
    marks!.forget(markKey);
  }
  const [counted] = (await opening([countBody(req, statsAggs)])) as [SearchResult<T>];
  const total = counted.total;

  const plan = deepPlan(req, sort, total, options);
  checkDeadline(deadline);
  switch (plan.kind) {
    case 'empty':
      return { total, hits: [] };
    case 'far-end': {
      const page = await search<T>(client, index, reversedBody(req, sort, plan.from, plan.size));
      return { total, hits: page.hits.reverse() };
    }
    case 'select':
    case 'select-score': {
      const remember = (mark: Mark) => marks?.remember(markKey, mark);
      const read: PageRead = { client, index, req, sort, kinds, twins: twinsOf(sort, types), size: plan.size, options, deadline, remember };
      const hits =
        plan.kind === 'select' ? await select<T>(read, counted.aggregations) : await selectByScore<T>(read, counted.aggregations);
      return { total, hits };
    }
  }
}
