import {
  afterValue,
  beforeCut,
  type Bounds,
  equalTo,
  fromCut,
  fromValue,
  type KeyKind,
  rangeOf,
  strictlyBefore,
  throughValue,
  untilCut,
} from './cuts.ts';
import { type Body, type PageRequest, sourceOf } from './plan.ts';
import { type SortKey, type SortOrder, sortClause } from './sort.ts';

/**
 * A position in the order (a cursor: keys fixed to one value, then a cut on the next key)
 * as Query DSL, and the final search of a selected page: the documents at or after one
 * cursor and before another, pure.
 */

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
    !last || last.field !== key.field
      ? {}
      : end?.fixed[0]
        ? throughValue(last.kind, last.order, last.value)
        : untilCut(last.order, last.value);
  return rangeOf(key.field, key.kind, { ...lower, ...upper });
}

/** The selected page: the documents at or after the cursor (and before the end), skipping `from` of them. */
export function selectedBody(
  req: PageRequest,
  sort: readonly SortKey[],
  cursor: Cursor,
  from: number,
  size: number,
  end: Cursor | null = null,
): Body {
  return { query: betweenQuery(req, cursor, end), sort: sortClause(sort), from, size, track_total_hits: false, ...sourceOf(req) };
}

/**
 * The same documents read from the end backwards (the caller reverses the rows), for a
 * page nearer the end than the cursor; `from` counts from the end.
 */
export function selectedFromEndBody(
  req: PageRequest,
  sort: readonly SortKey[],
  cursor: Cursor,
  end: Cursor,
  from: number,
  size: number,
): Body {
  return { query: betweenQuery(req, cursor, end), sort: sortClause(sort, true), from, size, track_total_hits: false, ...sourceOf(req) };
}
