import { isScoreKey, type SortKey, sortClause } from './sort.ts';

/**
 * The pure half of the page plan: the requests on the whole order (a shallow page, the
 * count, a read from the far end, search_after) and which strategy answers an offset once
 * the total is known (deepPlan); read-page.ts runs them. Each strategy's own requests and
 * decisions are pure too: number-cuts.ts, string-cuts.ts, score-cuts.ts, and cursor.ts for
 * the final search between two positions.
 *
 * Plain from+size makes every shard keep a queue of from+size documents, so its
 * cost grows with the depth (about 190 ms at 100,000 and 2.9 s at 990,000 of a
 * million documents here) and the index refuses it past max_result_window. A deep
 * page sorted by a field is instead *selected*: exact counts of the documents
 * before a few cuts on the first sort key narrow down where the wanted position
 * lies (percentiles only propose the cuts), a large group of equal values is
 * split the same way on the next key (the id), and the final search asks for the
 * documents at or after the best cut with a small from. Only exact counts decide
 * which rows come back; an estimate only decides how many requests that takes.
 */

export interface PagePlanOptions {
  /** The index's max_result_window: no from+size may pass it. */
  window: number;
  /** The most rows a selected page's final search skips with from. */
  skipMax: number;
}

/** Equal to every mapping file's max_result_window; a unit test keeps them in step. */
export const DEFAULT_PAGE_OPTIONS: PagePlanOptions = { window: 10_000, skipMax: 2_000 };

export interface PageRequest {
  query: Record<string, unknown>;
  /** The last key must be unique per document (the id), so the order is total. */
  sort: SortKey[];
  limit: number;
  offset: number;
  /** Only these source fields are fetched (the row's fields), when given. */
  source?: readonly string[];
}

export type Body = Record<string, unknown>;

export function sourceOf(req: PageRequest): Body {
  return req.source ? { _source: req.source } : {};
}

/** One request: the page and the exact total. */
export function shallowBody(req: PageRequest, sort: readonly SortKey[]): Body {
  return {
    query: req.query,
    sort: sortClause(sort),
    from: req.offset,
    size: req.limit,
    track_total_hits: true,
    ...sourceOf(req),
  };
}

/** Names of the plan's own aggregations; never returned to callers. */
export const PLAN_AGG = { percentiles: '_page_percentiles', stats: '_page_stats', cuts: '_page_cuts', values: '_page_values' } as const;

/** Percentile ranks asked for: every half percent. They only propose cuts. */
export const PERCENTS = Array.from({ length: 199 }, (_, i) => (i + 1) / 2);

/** The total of the whole query (and the first key's distribution, when it has one to count). */
export function countBody(req: PageRequest, planAggs: Body = {}): Body {
  return { query: req.query, size: 0, track_total_hits: true, ...(Object.keys(planAggs).length > 0 ? { aggs: planAggs } : {}) };
}

/** The query restricted to a set of documents (a group of equal keys, a bracket), without scores. */
export function within(query: Body, filters: readonly Body[]): Body {
  return filters.length === 0 ? query : { bool: { filter: [query, ...filters] } };
}

/** Exact count of documents matching a query (msearch item). */
export function countOnly(query: Body): Body {
  return { query, size: 0, track_total_hits: true };
}

/**
 * A page read from the far end: rows offset..offset+size-1 of the order are rows
 * total-offset-size.. of the reversed order. Returns from and size in the
 * reversed order; the caller reverses the rows back.
 */
export function fromFarEnd(offset: number, limit: number, total: number): { from: number; size: number } {
  const size = Math.max(0, Math.min(limit, total - offset));
  return { from: total - offset - size, size };
}

export function reversedBody(req: PageRequest, sort: readonly SortKey[], from: number, size: number): Body {
  return { query: req.query, sort: sortClause(sort, true), from, size, track_total_hits: false, ...sourceOf(req) };
}

/** How a page is read once the total is known. */
export type DeepPlan =
  | { kind: 'empty' }
  | { kind: 'far-end'; from: number; size: number }
  | { kind: 'select'; size: number }
  | { kind: 'select-score'; size: number };

export function deepPlan(req: PageRequest, sort: readonly SortKey[], total: number, options: PagePlanOptions): DeepPlan {
  if (req.offset >= total) return { kind: 'empty' };
  const tail = fromFarEnd(req.offset, req.limit, total);
  const byScore = sort.length > 0 && isScoreKey(sort[0]!);
  // Reversed, a from+size still sorts every match; a field order is selected between two
  // close marks for less unless the page is within a few rows of the end. Scores cannot be
  // bounded that way, so a relevance page takes the far end whenever the window reaches it.
  if (tail.from + tail.size <= (byScore ? options.window : options.skipMax)) return { kind: 'far-end', ...tail };
  return byScore ? { kind: 'select-score', size: tail.size } : { kind: 'select', size: tail.size };
}

/**
 * The rows after a position of the whole order (search_after), skipping `from`.
 * The engine refuses a from with search_after, so the skipped rows are asked for
 * too (at most skipMax) and dropped by the caller.
 */
export function afterBody(
  req: PageRequest,
  sort: readonly SortKey[],
  after: readonly (number | string)[] | null,
  from: number,
  size: number,
): Body {
  return {
    query: req.query,
    sort: sortClause(sort),
    ...(after ? { search_after: after } : { from: 0 }),
    size: from + size,
    track_total_hits: false,
    ...sourceOf(req),
  };
}
