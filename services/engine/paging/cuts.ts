import type { SortOrder } from './sort.ts';

/**
 * Cuts: points on a sort key's value line that split the matching documents in
 * two, counted exactly by the engine. A deep page is found by narrowing a pair of
 * cuts around the wanted position (number-cuts.ts, string-cuts.ts); this file holds
 * the value arithmetic and the Query DSL of a cut on any key, pure.
 *
 * A numeric cut sits halfway between two storable values (half a cent, half a
 * day), so "below the cut" means the same to a range query, a range aggregation
 * and the sort, whatever each does with an inclusive or rounded bound (a
 * scaled_float range rounds its bound to the scaling factor; 2019.995 is below
 * 2020 for every one of them). Every sortable number holds whole cents or whole
 * units (money, counts, years) and every sortable date whole days.
 */

export type KeyKind = 'integer' | 'decimal' | 'date' | 'string';
export type NumberKind = Exclude<KeyKind, 'string'>;

const DAY_MS = 86_400_000;

/** The cut just above the storable step that holds v. */
export function cutAbove(kind: NumberKind, v: number): number {
  if (kind === 'date') return Math.floor(v / DAY_MS) * DAY_MS + DAY_MS / 2;
  // Integer fields are cut at whole numbers: the engine's range aggregation truncates a
  // fractional bound on an integer field when it counts from the index (OpenSearch 3.8).
  if (kind === 'integer') return Math.floor(v) + 1;
  return (Math.floor(v * 100 + 1e-6) + 0.5) / 100;
}

/** The cut just below the storable step that holds v. */
export function cutBelow(kind: NumberKind, v: number): number {
  if (kind === 'date') return Math.floor(v / DAY_MS) * DAY_MS - DAY_MS / 2;
  if (kind === 'integer') return Math.floor(v);
  return (Math.floor(v * 100 + 1e-6) - 0.5) / 100;
}

type Bound = 'lt' | 'gte' | 'gt' | 'lte';
export type Bounds = Partial<Record<Bound, number | string>>;

export function rangeOf(field: string, kind: KeyKind, bounds: Partial<Record<Bound, number | string>>): Record<string, unknown> {
  // Dates are cut in epoch milliseconds; the fields themselves are written as calendar days.
  return { range: { [field]: { ...bounds, ...(kind === 'date' ? { format: 'epoch_millis' } : {}) } } };
}

/** Documents before a cut in this key's order: below it ascending, at or above it descending. */
export function beforeCut(field: string, kind: KeyKind, order: SortOrder, cut: number | string): Record<string, unknown> {
  return rangeOf(field, kind, order === 'asc' ? { lt: cut } : { gte: cut });
}

/** Documents whose key equals a stored value. */
export function equalTo(field: string, kind: KeyKind, value: number | string): Record<string, unknown> {
  if (kind === 'string') return { term: { [field]: value } };
  const v = value as number;
  return rangeOf(field, kind, { gte: cutBelow(kind, v), lt: cutAbove(kind, v) });
}

/** Documents whose key comes strictly before a stored value in this key's order. */
export function strictlyBefore(field: string, kind: KeyKind, order: SortOrder, value: number | string): Record<string, unknown> {
  if (kind === 'string') return rangeOf(field, kind, order === 'asc' ? { lt: value } : { gt: value });
  const v = value as number;
  return rangeOf(field, kind, order === 'asc' ? { lt: cutBelow(kind, v) } : { gte: cutAbove(kind, v) });
}

/** Bounds for the documents at or after a stored value in this key's order (not strictly before it). */
export function fromValue(kind: KeyKind, order: SortOrder, value: number | string): Bounds {
  if (kind === 'string') return order === 'asc' ? { gte: value } : { lte: value };
  const v = value as number;
  return order === 'asc' ? { gte: cutBelow(kind, v) } : { lt: cutAbove(kind, v) };
}

/** Bounds for the documents at or before a stored value in this key's order (not strictly after it). */
export function throughValue(kind: KeyKind, order: SortOrder, value: number | string): Bounds {
  if (kind === 'string') return order === 'asc' ? { lte: value } : { gte: value };
  const v = value as number;
  return order === 'asc' ? { lt: cutAbove(kind, v) } : { gte: cutBelow(kind, v) };
}

/** Bounds for the documents strictly after a stored value in this key's order. */
export function afterValue(kind: KeyKind, order: SortOrder, value: number | string): Bounds {
  if (kind === 'string') return order === 'asc' ? { gt: value } : { lt: value };
  const v = value as number;
  return order === 'asc' ? { gte: cutAbove(kind, v) } : { lt: cutBelow(kind, v) };
}

/** Bounds for the documents at or after a cut in this key's order. */
export function fromCut(order: SortOrder, cut: number | string): Bounds {
  return order === 'asc' ? { gte: cut } : { lt: cut };
}

/** Bounds for the documents before a cut in this key's order. */
export function untilCut(order: SortOrder, cut: number | string): Bounds {
  return order === 'asc' ? { lt: cut } : { gte: cut };
}
