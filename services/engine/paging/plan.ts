import {
  afterValue,
  beforeCut,
  type Bounds,
  cutAbove,
  cutBelow,
  fromCut,
  fromValue,
  rangeOf,
  throughValue,
  untilCut,
  equalTo,
  floatAbove,
  floatBelow,
  type KeyKind,
  type NumberKind,
  type CutSpace,
  strictlyBefore,
} from './cuts.ts';
import { PageRuleError } from './rules.ts';
import { isScoreKey, type SortKey, type SortOrder, sortClause } from './sort.ts';

/**
 * The pure half of the page plan: the Query DSL of every request a page may need
 * and the decisions taken on the engine's answers. page.ts runs them.
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

type Body = Record<string, unknown>;

function sourceOf(req: PageRequest): Body {
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

/** The first key's distribution, asked for with the total when the key is a number or a date. */
export function keyStatsAggs(field: string): Body {
  return {
    [PLAN_AGG.percentiles]: { percentiles: { field, percents: PERCENTS, tdigest: { compression: 200 } } },
    [PLAN_AGG.stats]: { stats: { field } },
  };
}

/**
 * Every distinct value of a date or whole-number first key with its exact count, when
 * there are at most this many (sale days, tax years): the position of any offset is
 * then read off the counts, with no cut to count. The request carrying it does not
 * depend on the offset, so the engine's request cache answers it for every later page
 * of the same query until the next refresh.
 */
export const VALUES_MAX = 2_000;

export function keyValuesAggs(field: string): Body {
  return { [PLAN_AGG.values]: { terms: { field, size: VALUES_MAX, order: { _key: 'asc' } } } };
}

/**
 * The values as cut buckets (one value each, between the cuts around it), or null when
 * the key has more values than were listed. Ordered by key, each shard lists its
 * smallest values, so the counts are exact whenever nothing is left over.
 */
export function valueBuckets(kind: NumberKind, aggs: Record<string, unknown> | undefined): CutBucket[] | null {
  const values = aggs?.[PLAN_AGG.values] as { sum_other_doc_count: number; buckets: { key: number; doc_count: number }[] } | undefined;
  if (!values || values.sum_other_doc_count > 0 || values.buckets.length === 0) return null;
  return values.buckets.map((b) => ({
    from: cutBelow(kind, b.key),
    to: cutAbove(kind, b.key),
    doc_count: b.doc_count,
    min: { value: b.key },
    max: { value: b.key },
  }));
}

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

// --- selecting a position on a number or date key -------------------------------------------

export interface KeyStats {
  count: number;
  min: number | null;
  max: number | null;
}

/**
 * Cuts to count: one at every percentile, and 48 more spread over the percentile
 * interval around the wanted rank (where an exact count is worth most).
 * `ascRank` is the wanted position counted from the smallest value.
 */
export function numberCuts(kind: NumberKind, percentiles: readonly (number | null)[], ascRank: number, count: number): number[] {
  const values = percentiles.filter((v): v is number => v !== null && Number.isFinite(v));
  const cuts = new Set(values.map((v) => cutAbove(kind, v)));
  if (values.length > 0 && count > 0) {
    const at = Math.min(values.length - 1, Math.max(0, Math.floor((ascRank / count) * (values.length + 1)) - 1));
    const lo = values[Math.max(0, at - 1)]!;
    const hi = values[Math.min(values.length - 1, at + 2)]!;
    for (let i = 1; i <= 48; i++) cuts.add(cutAbove(kind, lo + ((hi - lo) * i) / 49));
  }
  return [...cuts].sort((a, b) => a - b);
}

/** Exact counts between consecutive cuts, each with its smallest and largest value. */
export function cutsAggs(field: string, cuts: readonly number[]): Body {
  const ranges = [{ to: cuts[0] }, ...cuts.slice(0, -1).map((from, i) => ({ from, to: cuts[i + 1] })), { from: cuts[cuts.length - 1] }];
  return {
    [PLAN_AGG.cuts]: {
      range: { field, ranges: cuts.length === 0 ? [{}] : ranges },
      aggs: { min: { min: { field } }, max: { max: { field } } },
    },
  };
}

export interface CutBucket {
  from?: number;
  to?: number;
  doc_count: number;
  min: { value: number | null };
  max: { value: number | null };
}

/** Where position t (counted in sort order within the counted documents) falls. */
export interface Located {
  /** The cut on the near side of the bucket; null when nothing comes before it. */
  cut: number | null;
  /** Documents before that cut. */
  before: number;
  count: number;
  min: number;
  max: number;
}

export function locate(buckets: readonly CutBucket[], t: number, order: SortOrder): Located | null {
  const inOrder = order === 'asc' ? buckets : [...buckets].reverse();
  let before = 0;
  for (const b of inOrder) {
    if (t < before + b.doc_count) {
      const cut = order === 'asc' ? b.from : b.to;
      return { cut: cut ?? null, before, count: b.doc_count, min: b.min.value!, max: b.max.value! };
    }
    before += b.doc_count;
  }
  return null;
}

/**
 * The nearest cut, in sort order, with at least `need` documents of the counted set
 * before it: a page whose last row is at position need-1 ends before it. The far
 * edge of a bucket; undefined when only the open-ended last bucket reaches `need`.
 */
export function endCut(buckets: readonly CutBucket[], need: number, order: SortOrder): { cut: number; before: number } | undefined {
  const inOrder = order === 'asc' ? buckets : [...buckets].reverse();
  let before = 0;
  for (const b of inOrder) {
    before += b.doc_count;
    if (before >= need) {
      const cut = order === 'asc' ? b.to : b.from;
      return cut === undefined ? undefined : { cut, before };
    }
  }
  return undefined;
}

// --- selecting a position on a string key ---------------------------------------------------

/**
 * A cut on a string key with the exact number of documents before it: a string on the
 * key itself, or a whole number on the key's order twin (page-cuts.ts, orderTwinSpace).
 */
export interface KeyCut<V extends string | number> {
  cut: V;
  before: number;
}

/**
 * Cuts between two counted ones to count next: aimed a little before position t
 * (so the final skip is small) and a little after it (so the bracket shrinks),
 * interpolated in the digit space of the working set's smallest and largest
 * values; the midpoint too, so a bracket shrinks even when a guess is poor.
 */
export function stringCuts<V extends string | number>(space: CutSpace<V>, lo: KeyCut<V>, hi: KeyCut<V>, t: number, skipMax: number): V[] {
  const a = space.toNumber(lo.cut);
  const b = space.toNumber(hi.cut);
  // Few cuts: on a large working set each count of a string range costs a pass over its terms.
  const targets = [t - skipMax / 2, t - skipMax / 8, t + skipMax / 4];
  const fractions = targets.filter((x) => x > lo.before && x < hi.before).map((x) => (x - lo.before) / (hi.before - lo.before));
  const out = new Set<V>();
  const inside = (c: V) => (c > lo.cut && c < hi.cut) || (c < lo.cut && c > hi.cut);
  for (const f of fractions) {
    const c = space.fromNumber(a + (b - a) * f);
    if (inside(c)) out.add(c);
  }
  const mid = space.fromNumber((a + b) / 2);
  if (out.size === 0 && inside(mid)) out.add(mid);
  return [...out];
}

/** The tightest bracket around t among counted cuts. */
export function narrow<V extends string | number>(lo: KeyCut<V>, hi: KeyCut<V>, counted: readonly KeyCut<V>[], t: number): { lo: KeyCut<V>; hi: KeyCut<V> } {
  let l = lo;
  let h = hi;
  for (const c of counted) {
    // Ties move inward: a cut with the same count as a bracket end but inside it still narrows the key range.
    if (c.before <= t && c.before >= l.before) l = c;
    if (c.before > t && c.before <= h.before) h = c;
  }
  return { lo: l, hi: h };
}

// --- the final search -----------------------------------------------------------------------

/** Sort keys fixed to one value (a group of equal values) and a cut on the next key. */
export interface Cursor {
  fixed: { field: string; kind: KeyKind; order: SortOrder; value: number | string }[];
  cut: { field: string; kind: KeyKind; order: SortOrder; value: number | string } | null;
}

/** Every document that comes before the cursor in the sort order; null when none does. */
export function beforeCursor(cursor: Cursor): Body | null {
  const clauses: Body[] = [];
  const equal: Body[] = [];
  for (const f of cursor.fixed) {
    clauses.push(conj([...equal, strictlyBefore(f.field, f.kind, f.order, f.value)]));
    equal.push(equalTo(f.field, f.kind, f.value));
  }
  if (cursor.cut) clauses.push(conj([...equal, beforeCut(cursor.cut.field, cursor.cut.kind, cursor.cut.order, cursor.cut.value)]));
  if (clauses.length === 0) return null;
  return clauses.length === 1 ? clauses[0]! : { bool: { should: clauses, minimum_should_match: 1 } };
}

/**
 * Every document at or after the cursor in the sort order; null when every document
 * is. The complement of beforeCursor stated positively: a negated disjunction is
 * evaluated over the whole index (an id range under must_not enumerates a million
 * terms), while each clause here is a conjunction the engine can check document by
 * document.
 */
export function atOrAfterCursor(cursor: Cursor): Body | null {
  const clauses: Body[] = [];
  const equal: Body[] = [];
  for (const f of cursor.fixed) {
    clauses.push(conj([...equal, rangeOf(f.field, f.kind, afterValue(f.kind, f.order, f.value))]));
    equal.push(equalTo(f.field, f.kind, f.value));
  }
  if (cursor.cut) clauses.push(conj([...equal, rangeOf(cursor.cut.field, cursor.cut.kind, fromCut(cursor.cut.order, cursor.cut.value))]));
  else if (equal.length > 0) clauses.push(conj(equal));
  if (clauses.length === 0) return null;
  return clauses.length === 1 ? clauses[0]! : { bool: { should: clauses, minimum_should_match: 1 } };
}

function conj(filters: Body[]): Body {
  return filters.length === 1 ? filters[0]! : { bool: { filter: filters } };
}

/** The documents of a group of equal values (the fixed keys), to count within it. */
export function groupFilters(fixed: Cursor['fixed']): Body[] {
  return fixed.map((f) => equalTo(f.field, f.kind, f.value));
}

/**
 * The documents at or after the cursor and, when an end is known, before the end: the
 * end keeps the final search to the few buckets the page lies in, instead of sorting
 * every document after the cursor (most of the index on an early cut).
 */
function betweenQuery(req: PageRequest, cursor: Cursor, end: Cursor | null): Body {
  // Both marks in one group of equal earlier keys: the group and one range on the next key.
  if (end?.cut && sameGroup(cursor.fixed, end.fixed)) {
    const key = end.cut;
    const bounds = { ...(cursor.cut ? fromCut(cursor.cut.order, cursor.cut.value) : {}), ...untilCut(key.order, key.value) };
    return { bool: { filter: [...groupFilters(cursor.fixed), rangeOf(key.field, key.kind, bounds), req.query] } };
  }
  const from = atOrAfterCursor(cursor);
  const upTo = end ? beforeCursor(end) : null;
  if (!from && !upTo) return req.query;
  const span = firstKeySpan(cursor, end);
  return { bool: { filter: [...(span ? [span] : []), req.query, ...(from ? [from] : []), ...(upTo ? [upTo] : [])] } };
}

function sameGroup(a: Cursor['fixed'], b: Cursor['fixed']): boolean {
  return a.length === b.length && a.every((f, i) => f.field === b[i]!.field && f.value === b[i]!.value);
}

/**
 * The first key's range between two cursors, implied by them but stated alone: a
 * disjunction such as "before the group, or in it before the id cut" matches most of
 * the index by itself, and a plain range on the first key lets the engine start from
 * the few documents between the cursors instead.
 */
export function firstKeySpan(cursor: Cursor, end: Cursor | null): Body | null {
  const first = cursor.fixed[0] ?? cursor.cut;
  const last = end ? (end.fixed[0] ?? end.cut) : null;
  const key = first ?? last;
  if (!key) return null;
  const lower: Bounds = !first ? {} : cursor.fixed[0] ? fromValue(first.kind, first.order, first.value) : fromCut(first.order, first.value);
  const upper: Bounds =
    !last || last.field !== key.field ? {} : end?.fixed[0] ? throughValue(last.kind, last.order, last.value) : untilCut(last.order, last.value);
  return rangeOf(key.field, key.kind, { ...lower, ...upper });
}

/** The selected page: the documents at or after the cursor (and before the end), skipping `from` of them. */
export function selectedBody(req: PageRequest, sort: readonly SortKey[], cursor: Cursor, from: number, size: number, end: Cursor | null = null): Body {
  return { query: betweenQuery(req, cursor, end), sort: sortClause(sort), from, size, track_total_hits: false, ...sourceOf(req) };
}

/**
 * The same documents read from the end backwards (the caller reverses the rows), for a
 * page nearer the end than the cursor; `from` counts from the end.
 */
export function selectedFromEndBody(req: PageRequest, sort: readonly SortKey[], cursor: Cursor, end: Cursor, from: number, size: number): Body {
  return { query: betweenQuery(req, cursor, end), sort: sortClause(sort, true), from, size, track_total_hits: false, ...sourceOf(req) };
}

// --- selecting a position in relevance order --------------------------------------------------

/**
 * Scores cannot be cut by a range query, but they can be counted exactly: a range
 * aggregation over a script reading `_score` counts, in one scoring pass, the
 * documents above every cut (scores are float32 and the script hands them over as
 * exact doubles, so a bucket bound at floatAbove(v) splits "> v" from "<= v" with no
 * rounding). A page then starts with search_after at a synthetic position
 * (v, the start of every later key), which returns exactly the documents scoring
 * <= v in order, and skips at most skipMax of them. A group of equal scores larger
 * than that is split on the later keys by the field plan, on a filter that matches
 * exactly the documents scoring v (tieQuery).
 */
export const SCORE_SCRIPT = { source: '_score', lang: 'painless' } as const;

/** The score distribution (proposes cuts only), asked for with the total. */
export function scoreStatsAggs(): Body {
  return {
    [PLAN_AGG.percentiles]: { percentiles: { script: SCORE_SCRIPT, percents: PERCENTS, tdigest: { compression: 200 } } },
    [PLAN_AGG.stats]: { stats: { script: SCORE_SCRIPT } },
  };
}

/**
 * Scores to cut after (a cut at v splits "> v" from "<= v"), ascending: at every
 * percentile and just below it (so a percentile that is a large group of equal
 * scores gets a bucket of its own), and 48 more around the wanted position.
 * `bracket` (a bucket's smallest and largest score) spreads all cuts inside it.
 */
export function scoreCuts(percentiles: readonly (number | null)[], descRank: number, count: number, bracket?: { min: number; max: number }): number[] {
  const cuts = new Set<number>();
  const add = (v: number) => {
    const f = Math.fround(v);
    if (Number.isFinite(f)) cuts.add(f);
  };
  if (bracket) {
    add(bracket.min);
    for (let i = 1; i <= 48; i++) add(bracket.min + ((bracket.max - bracket.min) * i) / 49);
    return [...cuts].filter((v) => v >= bracket.min && v < bracket.max).sort((a, b) => a - b);
  }
  const values = percentiles.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  for (const v of values) {
    add(v);
    add(floatBelow(Math.fround(v)));
  }
  if (values.length > 0 && count > 0) {
    const ascRank = count - 1 - descRank;
    const at = Math.min(values.length - 1, Math.max(0, Math.floor((ascRank / count) * (values.length + 1)) - 1));
    const lo = values[Math.max(0, at - 1)]!;
    const hi = values[Math.min(values.length - 1, at + 2)]!;
    for (let i = 1; i <= 48; i++) add(lo + ((hi - lo) * i) / 49);
  }
  return [...cuts].sort((a, b) => a - b);
}

/** Exact counts of the scores between consecutive cuts (bucket bounds at floatAbove of each), each with its smallest and largest score. */
export function scoreCutsAggs(cuts: readonly number[]): Body {
  const bounds = cuts.map(floatAbove);
  const ranges =
    bounds.length === 0
      ? [{}]
      : [{ to: bounds[0] }, ...bounds.slice(0, -1).map((from, i) => ({ from, to: bounds[i + 1] })), { from: bounds[bounds.length - 1] }];
  return {
    [PLAN_AGG.cuts]: {
      range: { script: SCORE_SCRIPT, ranges },
      aggs: { min: { min: { script: SCORE_SCRIPT } }, max: { max: { script: SCORE_SCRIPT } } },
    },
  };
}

/** The score cut a located bucket starts at, in descending order: the bucket holds scores <= it. */
export function scoreCutOf(located: Located): number | null {
  return located.cut === null ? null : floatBelow(located.cut);
}

/** A score query that matches exactly, without scoring, the documents whose score is v. */
export function tieQuery(query: Body, v: number): Body {
  return {
    bool: {
      filter: [{ function_score: { query, min_score: v } }],
      must_not: [{ function_score: { query, min_score: floatAbove(v) } }],
    },
  };
}

/**
 * A value of a later sort key that comes before every stored one, so that
 * search_after (v, start...) returns every document scoring v. Only the keys a
 * list sorts on after the score: numbers and dates (descending or ascending)
 * and strings ascending.
 */
export function startOf(kind: KeyKind, order: SortOrder): number | string {
  if (kind === 'string') {
    if (order === 'asc') return '';
    // Refused before any engine call by sortKinds (page-rules.ts); kept so the function is total.
    throw new PageRuleError('string-after-score-ascending', 'a descending string key after the score has no start value');
  }
  if (kind === 'decimal') return order === 'desc' ? Number.MAX_VALUE : -Number.MAX_VALUE;
  return order === 'desc' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}

/**
 * The rows after a position of the whole order (search_after), skipping `from`.
 * The engine refuses a from with search_after, so the skipped rows are asked for
 * too (at most skipMax) and dropped by the caller.
 */
export function afterBody(req: PageRequest, sort: readonly SortKey[], after: readonly (number | string)[] | null, from: number, size: number): Body {
  return {
    query: req.query,
    sort: sortClause(sort),
    ...(after ? { search_after: after } : { from: 0 }),
    size: from + size,
    track_total_hits: false,
    ...sourceOf(req),
  };
}
