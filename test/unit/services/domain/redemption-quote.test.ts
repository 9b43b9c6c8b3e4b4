import { describe, expect, it } from 'vitest';
import { type QuoteFacts, interestMonths, quoteAmounts, redemptionQuote } from '../../../../services/domain/redemption-quote.ts';

const sold = (o: Partial<QuoteFacts> = {}): QuoteFacts => ({
  status: 'sold',
  sale_date: '2024-06-01',
  face_amount: 1000,
  interest_rate: 18,
  redeemed_date: null,
  tax_deed_application_date: null,
  ...o,
});

describe('the worked examples of chapter-197.md section 6', () => {
  it('example 1: 9.75% over 18 months, accrued governs', () => {
    const q = redemptionQuote(sold({ face_amount: 1234.56, interest_rate: 9.75, sale_date: '2023-06-01' }), '2024-11-20');
    expect(q).toMatchObject({
      redeemable: true,
      first_interest_month: '2023-06',
      interest_months: 18,
      accrued_interest_cents: 18055,
      minimum_interest_cents: 6173,
      interest_due_cents: 18055,
      rule: 'accrued',
      holder_amount_cents: 141511,
      total_due_cents: 142136,
    });
    // Its checks: December 2023 (7 months) accrued 70.22; November 2023 (6) the minimum.
    expect(quoteAmounts(1234.56, 9.75, '2023-06-01', '2023-12-31')).toMatchObject({ interest_due_cents: 7022, rule: 'accrued' });
    expect(quoteAmounts(1234.56, 9.75, '2023-06-01', '2023-11-01')).toMatchObject({
      accrued_interest_cents: 6018,
      interest_due_cents: 6173,
      rule: 'minimum_5_percent',
    });
  });

  it('example 2: 0.25% over 9 months, the 5% minimum governs', () => {
    const q = redemptionQuote(sold({ face_amount: 5000, interest_rate: 0.25 }), '2025-02-10');
    expect(q).toMatchObject({
      interest_months: 9,
      accrued_interest_cents: 938,
      minimum_interest_cents: 25000,
      rule: 'minimum_5_percent',
      holder_amount_cents: 525000,
      total_due_cents: 525625,
    });
  });

  it('example 3: a 0% bid earns nothing, not even the minimum', () => {
    const q = redemptionQuote(sold({ face_amount: 800, interest_rate: 0, sale_date: '2024-05-28' }), '2025-10-03');
    expect(q).toMatchObject({
      interest_months: 17,
      accrued_interest_cents: 0,
      minimum_interest_cents: 0,
      interest_due_cents: 0,
      rule: 'zero_bid',
      holder_amount_cents: 80000,
      total_due_cents: 80625,
    });
  });
});

describe('interest months: calendar months from June of the sale year, inclusive', () => {
  it.each([
    ['2024-06-01', '2024-06-01', 1],
    ['2024-06-01', '2024-06-30', 1],
    ['2024-06-01', '2024-07-01', 2],
    ['2024-05-28', '2024-05-31', 0],
    ['2024-05-28', '2024-06-01', 1],
    ['2024-06-20', '2024-06-20', 1],
    ['2024-06-20', '2024-07-01', 2],
    ['2024-06-01', '2024-12-31', 7],
    ['2024-06-01', '2025-01-01', 8],
    ['2024-06-01', '2026-02-28', 21],
    ['2024-06-01', '2028-02-29', 45],
    ['2024-06-01', '2031-05-31', 84],
  ])('sold %s, quoted %s: %i', (sale, asOf, months) => {
    expect(interestMonths(sale, asOf)).toBe(months);
  });

  it('a sale day later in the month never moves the count (the old generator counted from it)', () => {
    expect(quoteAmounts(1000, 18, '2024-06-20', '2024-10-05')).toEqual(quoteAmounts(1000, 18, '2024-06-01', '2024-10-31'));
  });
});

describe('rules and rounding', () => {
  it('before June of the sale year: no interest and no minimum (s. 197.172(2))', () => {
    expect(redemptionQuote(sold({ sale_date: '2024-05-20' }), '2024-05-31')).toMatchObject({
      interest_months: 0,
      minimum_interest_cents: 0,
      interest_due_cents: 0,
      rule: 'no_interest_yet',
      holder_amount_cents: 100000,
      total_due_cents: 100625,
    });
  });

  it('18%: the minimum through month 3, accrued from month 4', () => {
    expect(quoteAmounts(1000, 18, '2024-06-01', '2024-08-15')).toMatchObject({
      accrued_interest_cents: 4500,
      interest_due_cents: 5000,
      rule: 'minimum_5_percent',
    });
    expect(quoteAmounts(1000, 18, '2024-06-01', '2024-09-01')).toMatchObject({ interest_due_cents: 6000, rule: 'accrued' });
    expect(quoteAmounts(1000, 18, '2024-06-01', '2025-06-01')).toMatchObject({ interest_months: 13, interest_due_cents: 19500 });
  });

  it('5% over 12 months equals the minimum: the minimum is named', () => {
    expect(quoteAmounts(1000, 5, '2024-06-01', '2025-05-01')).toMatchObject({ accrued_interest_cents: 5000, rule: 'minimum_5_percent' });
  });

  it('rounds each component half up to the cent, in integer cents', () => {
    expect(quoteAmounts(1, 18, '2024-06-01', '2025-06-01').accrued_interest_cents).toBe(20); // 19.5 -> 20
    expect(quoteAmounts(0.1, 18, '2024-06-01', '2024-06-01').minimum_interest_cents).toBe(1); // 0.5 -> 1
    expect(quoteAmounts(0.3, 18, '2024-06-01', '2024-06-01').minimum_interest_cents).toBe(2); // 1.5 -> 2
    expect(quoteAmounts(0.7, 18, '2024-06-01', '2025-06-01').accrued_interest_cents).toBe(14); // 13.65 -> 14
    expect(quoteAmounts(3.33, 18, '2024-06-01', '2025-05-01').accrued_interest_cents).toBe(60); // 59.94 -> 60
    expect(quoteAmounts(999_999_999.99, 18, '2024-06-01', '2034-05-31')).toMatchObject({ holder_amount_cents: 279_999_999_997 });
  });

  it('matches an exact rational computation over every quarter-point rate and 0..96 months', () => {
    const wrong: string[] = [];
    for (const face of [0.01, 0.37, 312.45, 98_765.43]) {
      const f = Math.round(face * 100);
      for (let quarters = 0; quarters <= 72; quarters++)
        for (let m = 0; m <= 96; m++) {
          const asOf = `${2024 + Math.floor((5 + m - 1) / 12)}-${String(((5 + m - 1 + 12) % 12) + 1).padStart(2, '0')}-15`;
          const q = quoteAmounts(face, quarters / 4, '2024-05-30', asOf);
          const months = Math.max(0, m);
          if (q.interest_months !== months) wrong.push(`months ${asOf}: ${q.interest_months} != ${months}`);
          const exact4800 = quarters === 0 || months === 0 ? 0 : Math.max(f * quarters * months, f * 240);
          const got = q.interest_due_cents;
          if (!(got * 4800 - 2400 <= exact4800 && exact4800 < got * 4800 + 2400))
            wrong.push(`${face} at ${quarters / 4} for ${months}: ${got}`);
        }
    }
    expect(wrong).toEqual([]);
  });
});

describe('when a certificate is not redeemable', () => {
  it('cancelled: never', () => {
    expect(redemptionQuote(sold({ status: 'cancelled' }), '2024-07-01')).toMatchObject({ redeemable: false, reason: 'cancelled' });
  });

  it('redeemed: quoted as unredeemed through its redeemed_date, not after', () => {
    const c = sold({ status: 'redeemed', redeemed_date: '2025-03-10' });
    expect(redemptionQuote(c, '2025-03-10')).toMatchObject({ redeemable: true, holder_amount_cents: 115000 });
    expect(redemptionQuote(c, '2025-03-11')).toMatchObject({ redeemable: false, reason: 'redeemed' });
  });

  it('expired: from the sale date + 7 years with no deed application on record (s. 197.482)', () => {
    expect(redemptionQuote(sold(), '2031-05-31')).toMatchObject({ redeemable: true, interest_months: 84 });
    expect(redemptionQuote(sold(), '2031-06-01')).toMatchObject({ redeemable: false, reason: 'expired', statute: ['s. 197.482'] });
    const applied = sold({ status: 'tax_deed_applied', tax_deed_application_date: '2026-05-15' });
    expect(redemptionQuote(applied, '2031-06-01')).toMatchObject({ redeemable: true, deed_application_pending: true });
    expect(redemptionQuote(applied, '2026-05-14')).toMatchObject({ deed_application_pending: false });
  });

  it('a leap-day sale expires on Mar 1, 7 years on', () => {
    const leap = sold({ sale_date: '2024-02-29' });
    expect(redemptionQuote(leap, '2031-02-28')).toMatchObject({ redeemable: true });
    expect(redemptionQuote(leap, '2031-03-01')).toMatchObject({ redeemable: false, reason: 'expired' });
  });

  it('refuses a day before the sale or not a calendar date', () => {
    expect(() => redemptionQuote(sold(), '2024-05-31')).toThrow(RangeError);
    expect(() => redemptionQuote(sold(), '2025-02-29')).toThrow(RangeError);
  });
});
