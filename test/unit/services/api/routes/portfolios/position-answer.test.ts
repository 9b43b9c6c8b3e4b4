import { describe, expect, it } from 'vitest';
import { mapCertificate } from '../../../../../../services/domain/certificate-row.ts';
import { redemptionQuote } from '../../../../../../services/domain/redemption-quote.ts';
import { mapQuote } from '../../../../../../services/api/routes/certificate-quotes/map-row.ts';
import { annualizedYield, type PositionFacts, positionAnswer } from '../../../../../../services/api/routes/portfolios/position-answer.ts';
import { followedPositionId } from '../../../../../../services/domain/position-ids.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';

const BASE = 'https://parcels.example';

function position(overrides: Partial<PositionFacts> = {}): PositionFacts {
  return {
    id: 'pos_00000000000000000001',
    origin: 'added',
    certificate_id: 'cert_x',
    county_slug: 'alachua',
    certificate_number: '2023-000001',
    tax_year: 2023,
    acquired_on: '2024-06-01',
    acquired_amount_cents: null,
    note: 'lot by the lake',
    ...overrides,
  };
}

describe('positionAnswer', () => {
  it('renders the certificate and the quote exactly as their routes do', () => {
    const c = sampleCertificate({ face_amount: 1777.99, interest_rate: 0.25, sale_date: '2024-05-28' }, 1);
    const p = positionAnswer(position({ certificate_id: c.id }), c, '2025-11-24', BASE);
    expect(p.certificate).toEqual(mapCertificate(c, BASE));
    expect(p.quote).toEqual(mapQuote(c, '2025-11-24', redemptionQuote(c, '2025-11-24')));
    expect(p.status).toBe('sold');
    expect(p.acquired_amount).toBe(1777.99);
    expect(p.note).toBe('lot by the lake');
    expect(p.redeemed_on).toBeNull();
    expect(p.interest_earned).toBeNull();
  });

  it('names the next deadline by kind from the timeline rule', () => {
    const c = sampleCertificate({ sale_date: '2024-06-01' }, 2);
    expect(positionAnswer(position(), c, '2026-03-25', BASE).next_deadline).toEqual({
      kind: 'deed_application_opens',
      date: '2026-04-01',
      days_left: 7,
    });
    expect(positionAnswer(position(), c, '2026-04-02', BASE).next_deadline).toEqual({
      kind: 'expires',
      date: '2031-06-01',
      days_left: 1886,
    });
  });

  it('answers an unresolved position with its own facts only', () => {
    const p = positionAnswer(position({ acquired_amount_cents: 150_025 }), null, '2025-01-01', BASE);
    expect(p).toMatchObject({ status: 'unresolved', certificate: null, quote: null, next_deadline: null, acquired_amount: 1500.25 });
    expect(p.annualized_yield).toBeNull();
    expect(positionAnswer(position(), null, '2025-01-01', BASE).acquired_amount).toBeNull();
  });

  it('takes the interest of a redeemed position from the quote on its redemption day', () => {
    const c = sampleCertificate(
      { status: 'redeemed', redeemed: true, redeemed_date: '2025-05-10', face_amount: 1000, interest_rate: 18, sale_date: '2024-06-01' },
      3,
    );
    const p = positionAnswer(position(), c, '2025-12-01', BASE);
    // June 2024 through May 2025: 12 months at 18% on 1,000 = 180.00, the redemption_amount's interest.
    expect(p.redeemed_on).toBe('2025-05-10');
    expect(p.interest_earned).toBe(180);
    expect(c.redemption_amount).toBe(1180);
    expect(p.quote?.redeemable).toBe(false);
    expect(p.next_deadline).toBeNull();
    expect(p.annualized_yield).toBe(18);
    // Before its redemption day it is still outstanding.
    expect(positionAnswer(position(), c, '2025-05-09', BASE).redeemed_on).toBeNull();
  });

  it('annualizes over the acquired amount, half up to 4 decimals', () => {
    // 5% minimum on 1,000 after 3 months, bought at 1,000: 50 / 1000 / (3/12) = 20%.
    const c = sampleCertificate({ face_amount: 1000, interest_rate: 0.25, sale_date: '2024-06-01' }, 4);
    expect(positionAnswer(position(), c, '2024-08-15', BASE).annualized_yield).toBe(20);
    // Bought at 1,030: 50 / 1030 x 4 = 19.41747...%.
    expect(positionAnswer(position({ acquired_amount_cents: 103_000 }), c, '2024-08-15', BASE).annualized_yield).toBe(19.4175);
    expect(annualizedYield(1, 3, 1)).toBe(400);
    expect(annualizedYield(500, 100_000, 0)).toBeNull();
    expect(annualizedYield(500, 0, 3)).toBeNull();
  });

  it('has no quote on a day before the sale', () => {
    const c = sampleCertificate({ sale_date: '2024-06-01' }, 5);
    const p = positionAnswer(position(), c, '2024-05-01', BASE);
    expect(p.quote).toBeNull();
    expect(p.annualized_yield).toBeNull();
  });
});

describe('followedPositionId', () => {
  it('is stable per portfolio and certificate', () => {
    const a = followedPositionId('pf_1', 'cert_1');
    expect(a).toMatch(/^pos_[0-9a-f]{20}$/);
    expect(followedPositionId('pf_1', 'cert_1')).toBe(a);
    expect(followedPositionId('pf_2', 'cert_1')).not.toBe(a);
  });
});
