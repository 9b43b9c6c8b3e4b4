import type { PositionsParams, PositionSort } from './reading-params.ts';
import type { PositionRow } from './position-row.ts';

/**
 * The positions a page selects, pure: filters, then one order with missing values last and
 * ties by position id, so every page of a portfolio is stable and no position shows twice.
 */

type Key = (p: PositionRow) => number | string | null;

/** Each sort: the value it orders by and its direction. */
const SORT_KEYS: Record<PositionSort, { key: Key; desc: boolean }> = {
  next_deadline_asc: { key: (p) => p.next_deadline?.date ?? null, desc: false },
  payoff_desc: { key: (p) => (p.quote?.redeemable ? p.quote.holder_amount : null), desc: true },
  face_desc: { key: (p) => p.certificate?.face_amount ?? null, desc: true },
  acquired_desc: { key: (p) => p.acquired_on, desc: true },
};

function compareBy(sort: PositionSort): (a: PositionRow, b: PositionRow) => number {
  const { key, desc } = SORT_KEYS[sort];
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const order = x < y ? -1 : 1;
      return desc ? -order : order;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

export function selectPositions(
  rows: readonly PositionRow[],
  params: Pick<PositionsParams, 'status' | 'county' | 'deadline_before' | 'sort'>,
): PositionRow[] {
  const statuses = params.status ? new Set<string>(params.status) : null;
  const counties = params.county ? new Set(params.county) : null;
  const before = params.deadline_before;
  const kept = rows.filter(
    (p) =>
      (statuses === null || statuses.has(p.status)) &&
      (counties === null || counties.has(p.county_slug)) &&
      (before === undefined || (p.next_deadline !== null && p.next_deadline.date < before)),
  );
  return kept.sort(compareBy(params.sort));
}
