import type { PositionFigures } from './position-answer.ts';
import { type DEADLINE_KINDS, POSITION_STATUSES, type PositionStatus } from './position-row.ts';
import { DEADLINE_WINDOWS, type PortfolioSummary } from './summary-row.ts';

/**
 * A portfolio's summary from its positions' figures, pure. Every amount is summed in the whole
 * cents each position's row shows divided by 100 (the quote's holder_amount and interest_due,
 * the face, interest_earned), so a summary figure is always the sum of what a client reads per
 * position.
 */

const dollars = (c: number) => c / 100;

function deadlineCounts(positions: readonly PositionFigures[], days: number): Record<(typeof DEADLINE_KINDS)[number], number> {
  const counts = { deed_application_opens: 0, expires: 0 };
  for (const p of positions) if (p.next_deadline !== null && p.next_deadline.days_left <= days) counts[p.next_deadline.kind] += 1;
  return counts;
}

export function summarize(portfolioId: string, asOf: string, positions: readonly PositionFigures[]): PortfolioSummary {
  const byStatus = Object.fromEntries(POSITION_STATUSES.map((s) => [s, 0])) as Record<PositionStatus, number>;
  const out = { positions: 0, face: 0, payoff: 0, interest: 0 };
  const red = { positions: 0, face: 0, interest: 0 };
  const years = new Map<number, { positions: number; interest: number }>();
  for (const p of positions) {
    byStatus[p.status] += 1;
    if (p.quote?.redeemable && p.redeemed_on === null) {
      out.positions += 1;
      out.face += p.face_cents ?? 0;
      out.payoff += p.quote.holder_amount_cents;
      out.interest += p.quote.interest_due_cents;
    }
    if (p.redeemed_on !== null) {
      const earned = p.interest_earned_cents ?? 0;
      red.positions += 1;
      red.face += p.face_cents ?? 0;
      red.interest += earned;
      const year = Number(p.redeemed_on.slice(0, 4));
      const y = years.get(year) ?? { positions: 0, interest: 0 };
      years.set(year, { positions: y.positions + 1, interest: y.interest + earned });
    }
  }
  const [d7, d30, d90] = DEADLINE_WINDOWS.map((days) => deadlineCounts(positions, days)) as [
    ReturnType<typeof deadlineCounts>,
    ReturnType<typeof deadlineCounts>,
    ReturnType<typeof deadlineCounts>,
  ];
  return {
    portfolio_id: portfolioId,
    as_of: asOf,
    positions: positions.length,
    by_status: byStatus,
    unresolved: byStatus.unresolved,
    outstanding: {
      positions: out.positions,
      face_amount: dollars(out.face),
      payoff_as_of: dollars(out.payoff),
      interest_accrued: dollars(out.interest),
    },
    redeemed: { positions: red.positions, face_amount: dollars(red.face), interest_earned: dollars(red.interest) },
    interest_earned_by_year: [...years.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([year, y]) => ({ year, positions: y.positions, interest_earned: dollars(y.interest) })),
    deadlines: { within_7_days: d7, within_30_days: d30, within_90_days: d90 },
  };
}
