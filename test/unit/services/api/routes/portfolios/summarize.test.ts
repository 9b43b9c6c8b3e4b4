import { describe, expect, it } from 'vitest';
import type { CertificateRecord } from '../../../../../../services/domain/records.ts';
import {
  isOutstanding,
  type PositionFacts,
  positionFigures,
  renderPosition,
} from '../../../../../../services/api/routes/portfolios/position-answer.ts';
import type { PositionRow } from '../../../../../../services/api/routes/portfolios/position-row.ts';
import { summarize } from '../../../../../../services/api/routes/portfolios/summarize.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';

const AS_OF = '2026-03-20';

/** A certificate of each kind a portfolio holds, varied by n: outstanding, redeemed, cancelled, applied, unresolved. */
function generated(n: number): [PositionFacts, CertificateRecord | null] {
  const year = 2019 + (n % 6);
  const base = { tax_year: year, sale_date: `${year + 1}-0${(n % 2) + 4}-1${n % 10}`, face_amount: 100 + ((n * 7919) % 900_000) / 100 };
  const kind = n % 5;
  const c =
    kind === 4
      ? null
      : sampleCertificate(
          kind === 1
            ? { ...base, status: 'redeemed', redeemed: true, redeemed_date: `${year + 2}-0${(n % 9) + 1}-15` }
            : kind === 2
              ? { ...base, status: 'cancelled' }
              : kind === 3
                ? { ...base, status: 'tax_deed_applied', tax_deed_application_date: `${year + 3}-05-01` }
                : base,
          n,
        );
  const p: PositionFacts = {
    id: `pos_${String(n).padStart(20, '0')}`,
    origin: 'added',
    certificate_id: c?.id ?? `cert_${String(n).padStart(20, '0')}`,
    county_slug: 'alachua',
    certificate_number: `2023-${n}`,
    tax_year: year,
    acquired_on: null,
    acquired_amount_cents: n % 3 === 0 ? 50_000 + n : null,
    note: null,
  };
  return [p, c];
}

const sumCents = (rows: PositionRow[], pick: (p: PositionRow) => number | null | undefined) =>
  rows.reduce((s, p) => s + Math.round((pick(p) ?? 0) * 100), 0);

describe('summarize', () => {
  const generatedPositions = Array.from({ length: 2000 }, (_, n) => generated(n));
  const figures = generatedPositions.map(([p, c]) => positionFigures(p, c, AS_OF));
  // The rows a client reads, rendered from the same figures as the route renders a page.
  const rows = figures.map((f, i) => renderPosition(f, generatedPositions[i]![1], AS_OF, 'https://parcels.example'));
  const s = summarize('pf_x', AS_OF, figures);

  it('adds up to the positions it summarises, to the cent', () => {
    const out = rows.filter(isOutstanding);
    const red = rows.filter((p) => p.redeemed_on !== null);
    expect(out.length).toBeGreaterThan(100);
    expect(red.length).toBeGreaterThan(100);
    expect(s.outstanding.positions).toBe(out.length);
    expect(Math.round(s.outstanding.face_amount * 100)).toBe(sumCents(out, (p) => p.certificate?.face_amount));
    expect(Math.round(s.outstanding.payoff_as_of * 100)).toBe(sumCents(out, (p) => p.quote?.holder_amount));
    expect(Math.round(s.outstanding.interest_accrued * 100)).toBe(sumCents(out, (p) => p.quote?.interest_due));
    expect(Math.round(s.redeemed.face_amount * 100)).toBe(sumCents(red, (p) => p.certificate?.face_amount));
    expect(Math.round(s.redeemed.interest_earned * 100)).toBe(sumCents(red, (p) => p.interest_earned));
    const byYear = s.interest_earned_by_year.reduce((sum, y) => sum + Math.round(y.interest_earned * 100), 0);
    expect(byYear).toBe(Math.round(s.redeemed.interest_earned * 100));
    expect(s.interest_earned_by_year.reduce((sum, y) => sum + y.positions, 0)).toBe(red.length);
    // payoff = face + interest, each summed on its own.
    expect(Math.round(s.outstanding.payoff_as_of * 100)).toBe(
      Math.round(s.outstanding.face_amount * 100) + Math.round(s.outstanding.interest_accrued * 100),
    );
  });

  it('counts every position once by status, with the unresolved apart', () => {
    expect(Object.values(s.by_status).reduce((a, b) => a + b, 0)).toBe(rows.length);
    expect(s.unresolved).toBe(400);
    expect(s.by_status.unresolved).toBe(400);
    expect(s.positions).toBe(2000);
  });

  it('counts deadlines within each window by kind, each window holding the shorter', () => {
    for (const kind of ['deed_application_opens', 'expires'] as const) {
      const within = (days: number) => rows.filter((p) => p.next_deadline?.kind === kind && p.next_deadline.days_left <= days).length;
      expect(s.deadlines.within_7_days[kind]).toBe(within(7));
      expect(s.deadlines.within_30_days[kind]).toBe(within(30));
      expect(s.deadlines.within_90_days[kind]).toBe(within(90));
      expect(s.deadlines.within_7_days[kind]).toBeLessThanOrEqual(s.deadlines.within_90_days[kind]);
    }
    expect(s.deadlines.within_90_days.deed_application_opens + s.deadlines.within_90_days.expires).toBeGreaterThan(0);
  });

  it('summarises nothing as zeros', () => {
    const empty = summarize('pf_x', AS_OF, []);
    expect(empty.outstanding).toEqual({ positions: 0, face_amount: 0, payoff_as_of: 0, interest_accrued: 0 });
    expect(empty.interest_earned_by_year).toEqual([]);
  });
});
