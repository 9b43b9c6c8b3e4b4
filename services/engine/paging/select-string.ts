import { multiSearch } from '../search.ts';
import { checkDeadline, type FieldKey, MAX_ROUNDS, type PageRead } from './context.ts';
import { beforeCut, type KeyKind } from './cuts.ts';
import { countOnly, within } from './plan.ts';
import type { SortOrder } from './sort.ts';
import { type CutSpace, type KeyCut, narrow, ORDER_TWIN_TOP, orderTwinOf, orderTwinSpace, stringCuts, stringSpace } from './string-cuts.ts';

/**
 * Where a position falls on a string key (the id, a name): rounds of exact counts of the
 * documents before a few cuts narrow a bracket around it (string-cuts.ts), on the key's
 * long order twin when every document of the working set has one, on the keyword itself
 * otherwise.
 */

/** Where a string key's selection landed: the cuts, and the field and kind they are on. */
export interface StringSelection {
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
export async function selectString(
  read: PageRead,
  query: Record<string, unknown>,
  key: FieldKey,
  t: number,
): Promise<StringSelection | null> {
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
