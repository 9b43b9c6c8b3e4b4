import type { Client } from '@opensearch-project/opensearch';
import { EngineError, fieldTypes, multiSearch, SEARCH_TIMEOUT_MS, type SearchHit, type SearchResult, search } from '../search.ts';
import { beforeCut, cutAbove, cutBelow, type KeyKind, type NumberKind, rangeOf } from './cuts.ts';
import { atOrAfterCursor, beforeCursor, type Cursor, groupFilters, selectedBody, selectedFromEndBody } from './cursor.ts';
import { type CutBucket, cutsAggs, endCut, type KeyStats, keyAggs, locate, numberCuts, valueBuckets } from './number-cuts.ts';
import { afterBody, countBody, countOnly, DEFAULT_PAGE_OPTIONS, deepPlan, PLAN_AGG, type PagePlanOptions, type PageRequest, reversedBody, shallowBody, within } from './plan.ts';
import { scoreCutOf, scoreCuts, scoreCutsAggs, scoreStatsAggs, startOf, tieQuery } from './score-cuts.ts';
import { type CutSpace, type KeyCut, narrow, ORDER_TWIN_TOP, orderTwinOf, orderTwinSpace, stringCuts, stringSpace, twinsOf } from './string-cuts.ts';
import { type Mark, marksOf, PageMarks, type Position } from './marks.ts';
import { checkSortRules, sortKinds } from './rules.ts';
import { effectiveSort, isScoreKey, type SortKey, type SortOrder } from './sort.ts';

/**
 * One page of a list endpoint: the seam between the pure query builders and the
 * engine. Builders say what matches (query) and in what order (sort, ending with a
 * unique tie-breaker so pages never overlap or skip: the rules are page-rules.ts);
 * this module decides how to fetch rows offset..offset+limit cheaply at any depth
 * (the plan and its reasons: page-plan.ts).
 */

export type { PageRequest } from './plan.ts';
export { type SortKey, sortClause } from './sort.ts';

/** The rows of one page and the exact total of the query. */
export interface Page<T> {
  hits: SearchHit<T>[];
  total: number;
}

/**
 * Each engine call is bounded (services/engine/search.ts); a deep page makes a few
 * of them, so the page as a whole is bounded too: an engine that is merely slow
 * gives a 500 in seconds, not after every call has used its own timeout.
 */
export const PAGE_DEADLINE_MS = SEARCH_TIMEOUT_MS + 2000;

function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new EngineError('page', 'timeout', `page: no answer within ${PAGE_DEADLINE_MS} ms`);
}

/**
 * What every round of one deep page read shares, passed as one value instead of a
 * row of positional arguments: where to read, the request, its effective order, how
 * each field key of that order is cut, how many rows the page holds and until when
 * the page may take.
 */
interface PageRead {
  client: Client;
  index: string;
  req: PageRequest;
  /** The effective order (page-rules.ts holds its rules). */
  sort: readonly SortKey[];
  /** How each field key of `sort` is cut, in order (a score key has none). */
  kinds: readonly KeyKind[];
  /** The long order twins (page-cuts.ts) the index maps beside string keys, by key field. */
  twins: ReadonlySet<string>;
  /** Rows the page holds: the limit, or fewer at the end of the result. */
  size: number;
  options: PagePlanOptions;
  deadline: number;
  /** Keeps a position the page was read from, for the pages after it (page-marks.ts). */
  remember: (mark: Mark) => void;
}

/**
 * Rows offset..offset+limit-1 of the request's order, with the exact total. The sort's
 * rules (page-rules.ts) are checked first, its field types when a deep page reads them.
 */
export async function readPage<T>(
  client: Client,
  index: string,
  req: PageRequest,
  options: PagePlanOptions = DEFAULT_PAGE_OPTIONS,
): Promise<Page<T>> {
  return pageOf<T>(client, index, req, options, async (bodies) =>
    bodies.length === 1 ? [await search<T>(client, index, bodies[0]!)] : multiSearch<T>(client, index, bodies),
  );
}

/**
 * readPage, and one more search sent in the same msearch as the page's first request (the
 * page itself, or a deep page's count). A list's facet counts ride along this way instead of
 * taking an engine round trip of their own: on our machine a round trip costs the API process
 * about as much CPU as everything else a shallow page needs (issue 19 item 4).
 */
export async function readPageWith<T>(
  client: Client,
  index: string,
  req: PageRequest,
  beside: Record<string, unknown>[],
  options: PagePlanOptions = DEFAULT_PAGE_OPTIONS,
): Promise<{ page: Page<T>; beside: SearchResult<never>[] }> {
  let answers: SearchResult<never>[] | undefined;
  const page = await pageOf<T>(client, index, req, options, async (bodies) => {
    // Only the first opening carries them: a second one (after a stale mark) needs only its own answers.
    const sent = answers === undefined ? beside : [];
    const all = await multiSearch<T>(client, index, [...bodies, ...sent]);
    answers ??= all.splice(bodies.length) as SearchResult<never>[];
    return all;
  });
  // pageOf sends an opening request before it can return (a second one only after a stale mark).
  return { page, beside: answers! };
}

/** Sends an opening request: searches in one round trip, their answers in order. */
type Opening<T> = (bodies: Record<string, unknown>[]) => Promise<SearchResult<T>[]>;

/** The page read; `opening` sends its first request (a shallow page, a page from a mark, or a deep page's count). */
async function pageOf<T>(client: Client, index: string, req: PageRequest, options: PagePlanOptions, opening: Opening<T>): Promise<Page<T>> {
  checkSortRules(req.sort);
  const sort = effectiveSort(req.sort, req.query);
  if (req.offset + req.limit <= options.window) return (await opening([shallowBody(req, sort)]))[0]!;

  // Deep: the total and the first key's distribution in one request, then the plan.
  const deadline = Date.now() + PAGE_DEADLINE_MS;
  const byScore = sort.length > 0 && isScoreKey(sort[0]!);
  const types = await sortFieldTypes(client, index, sort);
  const kinds = sortKinds(sort, types);
  const first = sort[0];
  const firstKind = kinds[0];
  const statsAggs = byScore
    ? scoreStatsAggs()
    : first && !isScoreKey(first) && firstKind && firstKind !== 'string'
      ? keyAggs(first.field, firstKind)
      : {};
  // A page a few rows past one placed before (a client paging on): one round trip from its mark.
  const marks = byScore ? null : marksOf(client);
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
      const hits = plan.kind === 'select' ? await select<T>(read, counted.aggregations) : await selectByScore<T>(read, counted.aggregations);
      return { total, hits };
    }
  }
}

/**
 * Sort field types change only with a mapping, that is with a reindex behind the alias;
 * a minute of memory saves a field_caps round trip on every deep page.
 */
const TYPES_TTL_MS = 60_000;
const knownTypes = new WeakMap<Client, Map<string, { at: number; types: Record<string, string> }>>();

async function sortFieldTypes(client: Client, index: string, sort: readonly SortKey[]): Promise<Record<string, string>> {
  // Each key's order twin too: a string key with one is cut on it (page-cuts.ts).
  const fields = sort.flatMap((k) => (isScoreKey(k) ? [] : [k.field, orderTwinOf(k.field)]));
  const memo = knownTypes.get(client) ?? new Map<string, { at: number; types: Record<string, string> }>();
  knownTypes.set(client, memo);
  const key = `${index}\u0000${fields.join(',')}`;
  const known = memo.get(key);
  if (known && Date.now() - known.at < TYPES_TTL_MS) return known.types;
  const types = await fieldTypes(client, index, fields);
  memo.set(key, { at: Date.now(), types });
  return types;
}

/** Rounds of counting a selection may take before it is a bug, not bad luck. */
const MAX_ROUNDS = 24;

interface FieldKey {
  field: string;
  order: SortOrder;
}

/**
 * Whether a page at req.offset may be read from a mark as the plan that found the mark read its
 * own page: between the mark and the later position it knows (which the page must end before),
 * skipping at most skipMax documents or within one window of them. Without that later position
 * the final search would sort every document after the mark (60-80 ms at 1M against 8 ms): such
 * a page is placed from scratch, and leaves a mark of its own.
 */
function reaches(mark: Mark, req: PageRequest, options: PagePlanOptions): boolean {
  const { end } = mark;
  if (req.offset + req.limit > end.before) return false;
  const skip = req.offset - mark.before;
  return skip <= options.skipMax || (end.before - mark.before <= BOUNDED_MAX * options.window && skip + req.limit <= options.window);
}

/**
 * The page from a mark (page-marks.ts) in one msearch: the total, and the documents before
 * the mark and its end and those at or after each, counted again beside the page itself. The
 * page is exact when both positions still have their counts and still split the result in two
 * (a document that neither side matches, one without the order twin a cut is on, would shift
 * every row after it); null otherwise, and the caller places the page from scratch.
 */
async function fromMark<T>(req: PageRequest, sort: readonly SortKey[], mark: Mark, opening: Opening<T>): Promise<Page<T> | null> {
  const counts: Record<string, unknown>[] = [countOnly(req.query)];
  for (const p of [mark, mark.end]) {
    const before = beforeCursor(p.cursor);
    const atOrAfter = atOrAfterCursor(p.cursor);
    if (!before || !atOrAfter) return null;
    counts.push(countOnly(within(req.query, [before])), countOnly(within(req.query, [atOrAfter])));
  }
  const answers = await opening([...counts, selectedBody(req, sort, mark.cursor, req.offset - mark.before, req.limit, mark.end.cursor)]);
  const total = answers[0]!.total;
  const held = [mark, mark.end].every((p, i) => answers[1 + 2 * i]!.total === p.before && answers[1 + 2 * i]!.total + answers[2 + 2 * i]!.total === total);
  if (!held) return null;
  return { total, hits: req.offset >= total ? [] : answers.at(-1)!.hits };
}

/**
 * The rows at positions offset..offset+size-1 of a field order, found with exact
 * counts (page-plan.ts). `base` counts the documents before the current working
 * set: a group of equal values on the keys fixed so far, narrowed to a bracket of
 * the current key. `end`, once known, is a position the page ends before: the final
 * search then sorts only the documents between two marks, and may skip as far as the
 * window allows from either one.
 */
async function select<T>(read: PageRead, firstAggs: Record<string, unknown> | undefined): Promise<SearchHit<T>[]> {
  const { client, index, req, sort, kinds, size, options, deadline, remember } = read;
  const fixed: Cursor['fixed'] = [];
  let base = 0;
  let level = 0;
  let bracket: Record<string, unknown> | null = null;
  let known = firstAggs;
  let end: Position | null = null;
  const bounded = (start: number) => end !== null && end.before - start <= BOUNDED_MAX * options.window;
  /** The page from a mark at or before it, or null when neither mark is near enough. */
  const finish = async (start: Position): Promise<SearchHit<T>[] | null> => {
    const skip = req.offset - start.before;
    checkDeadline(deadline);
    let hits: SearchHit<T>[] | null = null;
    if (skip <= options.skipMax || (bounded(start.before) && skip + size <= options.window)) {
      hits = (await search<T>(client, index, selectedBody(req, sort, start.cursor, skip, size, end?.cursor ?? null))).hits;
    } else {
      const fromEnd = end ? end.before - req.offset - size : Number.POSITIVE_INFINITY;
      if (end && bounded(start.before) && fromEnd + size <= options.window)
        hits = (await search<T>(client, index, selectedFromEndBody(req, sort, start.cursor, end.cursor, fromEnd, size))).hits.reverse();
    }
    // The position the page was read from, for the next pages (a copy: `fixed` grows in later rounds).
    // Only with the position the page ends before: a page read from a mark must be bounded too (reaches).
    if (hits && start.before > 0 && end)
      remember({ cursor: { fixed: [...start.cursor.fixed], cut: start.cursor.cut }, before: start.before, end: { cursor: { fixed: [...end.cursor.fixed], cut: end.cursor.cut }, before: end.before } });
    return hits;
  };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    checkDeadline(deadline);
    const key = sort[level] as FieldKey | undefined;
    const kind = kinds[level];
    if (!key || !kind) break;
    const t = req.offset - base;
    const filters = [...groupFilters(fixed), ...(bracket ? [bracket] : [])];
    const query = within(req.query, filters);

    if (kind === 'string') {
      // A group of equal earlier keys that the window reaches from its start or its end needs no cut.
      const whole = level > 0 && bracket === null ? await finish({ cursor: { fixed, cut: null }, before: base }) : null;
      if (whole) return whole;
      const found = await selectString(read, query, key, t);
      if (!found) break;
      const on = { field: found.field, kind: found.kind, order: key.order };
      if (found.end) end = { cursor: { fixed, cut: { ...on, value: found.end.cut } }, before: base + found.end.before };
      const cut = found.start.before === 0 ? null : { ...on, value: found.start.cut };
      const page = await finish({ cursor: { fixed, cut }, before: base + found.start.before });
      if (page) return page;
      break;
    }

    // A number or a date: its values (when few) or its distribution and counted cuts place the position.
    const aggs = known ?? (await search(client, index, { query, size: 0, aggs: keyAggs(key.field, kind) })).aggregations;
    known = undefined;
    let buckets = valueBuckets(kind as NumberKind, aggs);
    if (!buckets) {
      const stats = aggs?.[PLAN_AGG.stats] as KeyStats | undefined;
      const percentiles = aggs?.[PLAN_AGG.percentiles] as { values: Record<string, number | null> } | undefined;
      if (!stats || stats.min === null || stats.max === null || t >= stats.count) break;
      if (stats.min === stats.max) {
        // One value: the working set is a group of equal keys; split it on the next key.
        fixed.push({ ...key, kind, value: stats.min });
        bracket = null;
        level++;
        continue;
      }
      const ascRank = key.order === 'asc' ? t : stats.count - 1 - t;
      const cuts = numberCuts(kind, Object.values(percentiles?.values ?? {}), ascRank, stats.count);
      const counted = await search(client, index, { query, size: 0, aggs: cutsAggs(key.field, cuts) });
      buckets = (counted.aggregations?.[PLAN_AGG.cuts] as { buckets: CutBucket[] } | undefined)?.buckets ?? [];
    }
    const at = locate(buckets, t, key.order);
    if (!at) break;
    const after = endCut(buckets, t + size, key.order);
    if (after) end = { cursor: { fixed: [...fixed], cut: { ...key, kind, value: after.cut } }, before: base + after.before };
    const cut = at.cut === null ? null : { ...key, kind, value: at.cut };
    const page = await finish({ cursor: { fixed: [...fixed], cut }, before: base + at.before });
    if (page) return page;
    base += at.before;
    if (at.min === at.max) {
      fixed.push({ ...key, kind, value: at.min });
      bracket = null;
      level++;
    } else {
      const numberKind = kind as NumberKind;
      bracket = rangeOf(key.field, kind, { gte: cutBelow(numberKind, at.min), lt: cutAbove(numberKind, at.max) });
    }
  }
  // Meant to be unreachable while every sort ends with a unique key present on every document;
  // should a cut still not converge, the page is walked to (exact, slower), never refused.
  return walkTo<T>(read);
}

/**
 * How many windows of documents a final search may sort between its two marks when it
 * skips further than skipMax: a from of thousands costs tens of milliseconds once the
 * documents between the marks reach a few windows, more than a round of counts.
 */
const BOUNDED_MAX = 1;

/** Where a string key's selection landed: the cuts, and the field and kind they are on. */
interface StringSelection {
  start: KeyCut<string | number>;
  end: KeyCut<string | number> | null;
  field: string;
  kind: KeyKind;
}

/**
 * The best string cut before position t of the working set, with its count, by rounds
 * of exact counts; and the nearest counted cut the page ends before, when one is known.
 * On the key's order twin when the index maps one and every document of the working set
 * has it; on the key itself otherwise.
 */
async function selectString(read: PageRead, query: Record<string, unknown>, key: FieldKey, t: number): Promise<StringSelection | null> {
  const { client, index } = read;
  if (read.twins.has(key.field)) {
    const twin = orderTwinOf(key.field);
    const [all, twinned] = await multiSearch(client, index, [countOnly(query), countOnly(within(query, [{ exists: { field: twin } }]))]);
    const n = all!.total;
    // A document without its twin (written by hand, or before a reindex) would be counted on
    // the wrong side of every cut: then the key itself is cut, slower but exact.
    if (n === twinned!.total) {
      if (t >= n) return null;
      const lo = { cut: key.order === 'asc' ? 0 : ORDER_TWIN_TOP, before: 0 };
      const hi = { cut: key.order === 'asc' ? ORDER_TWIN_TOP : 0, before: n };
      const found = await narrowCuts(read, query, { field: twin, kind: 'integer', order: key.order }, orderTwinSpace, lo, hi, t);
      return found && { ...found, field: twin, kind: 'integer' };
    }
  }
  const ends = await multiSearch(client, index, [
    { query, size: 1, sort: [{ [key.field]: 'asc' }], _source: false, track_total_hits: true },
    { query, size: 1, sort: [{ [key.field]: 'desc' }], _source: false, track_total_hits: false },
  ]);
  const n = ends[0]!.total;
  const min = ends[0]!.hits[0]?.sort?.[0];
  const max = ends[1]!.hits[0]?.sort?.[0];
  if (typeof min !== 'string' || typeof max !== 'string' || t >= n) return null;
  // Just past the largest value: nothing is at or above it.
  const top = `${max}\u0000`;
  const lo = key.order === 'asc' ? { cut: min, before: 0 } : { cut: top, before: 0 };
  const hi = key.order === 'asc' ? { cut: top, before: n } : { cut: min, before: n };
  const found = await narrowCuts(read, query, { field: key.field, kind: 'string', order: key.order }, stringSpace(min, max), lo, hi, t);
  return found && { ...found, field: key.field, kind: 'string' };
}

/** Rounds of exact counts of cuts on one field, narrowing lo..hi until position t is within a skip of lo. */
async function narrowCuts<V extends string | number>(
  read: PageRead,
  query: Record<string, unknown>,
  on: { field: string; kind: KeyKind; order: SortOrder },
  space: CutSpace<V>,
  lo: KeyCut<V>,
  hi: KeyCut<V>,
  t: number,
): Promise<{ start: KeyCut<V>; end: KeyCut<V> | null } | null> {
  const { client, index, size, options, deadline } = read;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (t - lo.before <= options.skipMax) return { start: lo, end: hi.before >= t + size ? hi : null };
    checkDeadline(deadline);
    const cuts = stringCuts(space, lo, hi, t, options.skipMax);
    if (cuts.length === 0) return null;
    const counts = await multiSearch(
      client,
      index,
      cuts.map((c) => countOnly(within(query, [beforeCut(on.field, on.kind, on.order, c)]))),
    );
    ({ lo, hi } = narrow(
      lo,
      hi,
      cuts.map((cut, i) => ({ cut, before: counts[i]!.total })),
      t,
    ));
  }
  return null;
}

/**
 * The rows at positions offset..offset+size-1 of a relevance order (score first,
 * then field keys ending with the id), found with exact counts of scores
 * (page-plan.ts). A group of equal scores too large to skip is handed to the
 * field plan on a filter matching exactly that score.
 */
async function selectByScore<T>(read: PageRead, firstAggs: Record<string, unknown> | undefined): Promise<SearchHit<T>[]> {
  const { client, index, req, sort, kinds: restKinds, size, options, deadline } = read;
  const rest = sort.slice(1) as FieldKey[];
  const start = rest.map((k, i) => startOf(restKinds[i]!, k.order));
  const t = req.offset;
  const stats = firstAggs?.[PLAN_AGG.stats] as KeyStats | undefined;
  const percentiles = firstAggs?.[PLAN_AGG.percentiles] as { values: Record<string, number | null> } | undefined;
  if (!stats || stats.min === null || stats.max === null) throw new Error('page plan: no score statistics');
  let bracket: { min: number; max: number } | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    checkDeadline(deadline);
    const cuts = scoreCuts(Object.values(percentiles?.values ?? {}), t, stats.count, bracket);
    const counted = await search(client, index, { query: req.query, size: 0, aggs: scoreCutsAggs(cuts) });
    const buckets = (counted.aggregations?.[PLAN_AGG.cuts] as { buckets: CutBucket[] } | undefined)?.buckets ?? [];
    const at = locate(buckets, t, 'desc');
    if (!at) break;
    if (t - at.before <= options.skipMax) {
      const v = scoreCutOf(at);
      checkDeadline(deadline);
      const skip = t - at.before;
      const page = await search<T>(client, index, afterBody(req, sort, v === null ? null : [v, ...start], skip, size));
      return page.hits.slice(skip);
    }
    if (at.min !== at.max) {
      bracket = { min: at.min, max: at.max };
      continue;
    }
    // A group of equal scores: its rows in the order of the later keys, then (if the page runs past it) the rows after it.
    const v = at.min;
    const inGroup = Math.min(size, at.count - (t - at.before));
    const tie: PageRequest = { ...req, query: tieQuery(req.query, v), sort: rest, offset: t - at.before, limit: inGroup };
    const hits = await select<T>({ ...read, req: tie, sort: rest, size: inGroup }, undefined);
    if (hits.length < size && hits.length === inGroup) {
      const last = hits[hits.length - 1]?.sort ?? [];
      checkDeadline(deadline);
      const next = await search<T>(client, index, afterBody(req, sort, [v, ...(last as (number | string)[])], 0, size - inGroup));
      hits.push(...next.hits);
    }
    return hits;
  }
  // Meant to be unreachable (every round isolates a score or narrows the bracket), but a score the
  // cut aggregation computes can differ in its last bit from the score the sort sees: then the
  // page is walked to, slower but exact, never refused.
  return walkTo<T>(read);
}

/**
 * The fallback of last resort: walk to the offset with search_after in steps of the result
 * window, reading sort values only, then read the page. Exact for any order; it costs one
 * request per window of rows skipped, still bounded by the page deadline.
 */
async function walkTo<T>(read: PageRead): Promise<SearchHit<T>[]> {
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
