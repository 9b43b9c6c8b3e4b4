import { describe, expect, it } from 'vitest';
import type { AddedPosition, PositionRecord } from '../../../../../../services/control/portfolios/index.ts';
import { readPositionLine } from '../../../../../../services/api/routes/portfolios/position-line.ts';
import { certificateIdsOf, planPositions, positionsReport } from '../../../../../../services/api/routes/portfolios/positions-plan.ts';
import { certificateId } from '../../../../../../services/domain/ids.ts';
import { registry } from '../../../../../helpers/registry.ts';

const read = (lines: unknown[]) => lines.map((l) => readPositionLine(l, registry, '2026-03-10'));
const LOADED_ID = certificateId('lee', 2023, '2023-004512');
const loaded = new Map([[LOADED_ID, { county_slug: 'lee', certificate_number: '2023-004512', tax_year: 2023 }]]);
const lines = read([
  { county: 'lee', certificate_number: '2023004512', tax_year: 2023, acquired_amount: 10 },
  { certificate_id: 'cert_0123456789abcdef0123' },
  { county: 'atlantis', certificate_number: '1', tax_year: 2023 },
  { county: 'lee', certificate_number: '9', tax_year: 2024 },
  { certificate_id: LOADED_ID },
]);

describe('planPositions', () => {
  it('names each certificate once for the engine', () => {
    expect(certificateIdsOf(lines)).toEqual([LOADED_ID, 'cert_0123456789abcdef0123', certificateId('lee', 2024, '9')]);
  });

  it("takes a loaded certificate's spelling, keeps an unloaded key as given, and refuses an unloaded id", () => {
    const plan = planPositions(lines, loaded);
    expect(plan.errors.map((e) => e?.code)).toEqual([undefined, 'unknown_certificate', 'unknown_county', undefined, undefined]);
    expect(plan.adding.map((p) => [p.certificate_id, p.certificate_number, p.tax_year, p.acquired_amount_cents])).toEqual([
      [LOADED_ID, '2023-004512', 2023, 1000],
      [certificateId('lee', 2024, '9'), '9', 2024, null],
      [LOADED_ID, '2023-004512', 2023, null],
    ]);
    expect(plan.lineOf).toEqual([1, 4, 5]);
    expect(plan.addingOf[3]).toBe(1);
  });
});

describe('positionsReport', () => {
  it('answers every line in order, counting created, unresolved and rejected', () => {
    const plan = planPositions(lines, loaded);
    const record = (p: (typeof plan.adding)[number], id: string): PositionRecord => ({
      ...p,
      id,
      portfolio_id: 'pf_x',
      created_at: '2026-03-10T12:00:00.000Z',
    });
    const added: AddedPosition[] = [
      { status: 'created', position: record(plan.adding[0]!, 'pos_a') },
      { status: 'created', position: record(plan.adding[1]!, 'pos_b') },
      { status: 'duplicate', line: 0 },
    ];
    const report = positionsReport('pf_x', plan, added, loaded);
    expect(report).toMatchObject({ portfolio_id: 'pf_x', created: 2, unresolved: 1, rejected: 3 });
    expect(report.lines.map((l) => [l.line, l.status, l.status === 'created' ? l.position.resolved : l.error.code])).toEqual([
      [1, 'created', true],
      [2, 'rejected', 'unknown_certificate'],
      [3, 'rejected', 'unknown_county'],
      [4, 'created', false],
      [5, 'rejected', 'duplicate'],
    ]);
    const dup = report.lines[4]!;
    expect(dup.status === 'rejected' && dup.error.message).toBe('line 1 of this request already adds this certificate');
    const first = report.lines[0]!;
    expect(first.status === 'created' && first.position).toMatchObject({ id: 'pos_a', county: 'lee', acquired_amount: 10 });
    const held = positionsReport(
      'pf_x',
      planPositions(read([{ certificate_id: LOADED_ID }]), loaded),
      [{ status: 'duplicate', positionId: 'pos_a' }],
      loaded,
    );
    expect(held.lines[0]).toMatchObject({
      status: 'rejected',
      error: { code: 'duplicate', message: 'the portfolio already holds this certificate as position pos_a' },
    });
  });
});
