import { type SearchHit, search } from '../search.ts';
import { BOUNDED_MAX, checkDeadline, type FieldKey, MAX_ROUNDS, type PageRead } from './context.ts';
import { cutAbove, cutBelow, type NumberKind, rangeOf } from './cuts.ts';
import { type Cursor, groupFilters, selectedBody, selectedFromEndBody } from './cursor.ts';
import type { Position } from './marks.ts';
import { endCut, locate } from './number-cuts.ts';
import { within } from './plan.ts';
import { countNumberKey } from './select-number.ts';
import { selectString } from './select-string.ts';
import { walkTo } from './walk-to.ts';

/**
 * The rows at positions offset..offset+size-1 of a field order, found with exact
 * counts, key by key: a number or date key by select-number.ts, a string key by
 * select-string.ts. `base` counts the documents before the current working set: a
 * group of equal values on the keys fixed so far, narrowed to a bracket of the
 * current key. `end`, once known, is a position the page ends before: the final
 * search then sorts only the documents between two marks, and may skip as far as the
 * window allows from either one.
 */
export async function select<T>(read: PageRead, firstAggs: Record<string, unknown> | undefined): Promise<SearchHit<T>[]> {
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
      remember({
        cursor: { fixed: [...start.cursor.fixed], cut: start.cursor.cut },
        before: start.before,
        end: { cursor: { fixed: [...end.cursor.fixed], cut: end.cursor.cut }, before: end.before },
      });
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
    const counted = await countNumberKey(read, query, key, kind, t, known);
    known = undefined;
    if (!counted) break;
    if ('one' in counted) {
      // One value: the working set is a group of equal keys; split it on the next key.
      fixed.push({ ...key, kind, value: counted.one });
      bracket = null;
      level++;
      continue;
    }
    const { buckets } = counted;
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
