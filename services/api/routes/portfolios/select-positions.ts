import type { PositionFigures } from './position-answer.ts';
import type { PositionSort, PositionsParams } from './reading-params.ts';

/**
 * The positions a page selects, pure, on their figures: filters, then one order with missing
 * values last and ties by position id, so every page of a portfolio is stable and no position
 * shows twice.
 */

type Key = (p: PositionFigures) => number | string | null;

/** Each sort: the value it orders by and its direction. */
const SORT_KEYS: Record<PositionSort, { key: Key; desc: boolean }> = {
  next_deadline_asc: { key: (p) => p.next_deadline?.date ?? null, desc: false },
  payoff_desc: { key: (p) => (p.quote?.redeemable ? p.quote.holder_amount_cents : null), desc: true },
  face_desc: { key: (p) => p.face_cents, desc: true },
  acquired_desc: { key: (p) => p.facts.acquired_on, desc: true },
};

function compareBy(sort: PositionSort): (a: PositionFigures, b: PositionFigures) => number {
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
    return a.facts.id < b.facts.id ? -1 : a.facts.id > b.facts.id ? 1 : 0;
  };
}

export function selectPositions(
  rows: readonly PositionFigures[],
  params: Pick<PositionsParams, 'status' | 'county' | 'deadline_before' | 'sort'>,
): PositionFigures[] {
  const statuses = params.status ? new Set<string>(params.status) : null;
  const counties = params.county ? new Set(params.county) : null;
  const before = params.deadline_before;
  const kept = rows.filter(
    (p) =>
      (statuses === null || statuses.has(p.status)) &&
      (counties === null || counties.has(p.facts.county_slug)) &&
      (before === undefined || (p.next_deadline !== null && p.next_deadline.date < before)),
  );
  return kept.sort(compareBy(params.sort));
}
