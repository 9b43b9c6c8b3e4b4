import { describe, expect, it } from 'vitest';
import { redemptionAmountOn } from '../../../../services/generator/redemption.ts';
import { redemptionQuote } from '../../../../services/domain/redemption-quote.ts';

describe("the generator's redemption amount is the quote's holder_amount (one redemption rule everywhere)", () => {
  it('counts calendar months from June of the sale year, not from the sale day', () => {
    // Sold June 20, redeemed Oct 5: June to October, 5 months (counting from the 20th gave 4).
    expect(redemptionAmountOn(1000, 18, '2025-06-20', '2025-10-05')).toBe(1075);
    expect(redemptionAmountOn(1234.56, 9.75, '2023-06-01', '2024-11-20')).toBe(1415.11);
    expect(redemptionAmountOn(5000, 0.25, '2024-06-01', '2025-02-10')).toBe(5250);
    expect(redemptionAmountOn(800, 0, '2024-05-28', '2025-10-03')).toBe(800);
    // Redeemed in the sale's own May: no interest and no minimum yet.
    expect(redemptionAmountOn(1000, 18, '2025-05-20', '2025-05-30')).toBe(1000);
  });

  it('agrees with the quote on every day of a certificate life', () => {
    const c = { status: 'redeemed', sale_date: '2024-05-28', face_amount: 312.45, interest_rate: 7.25, tax_deed_application_date: null };
    for (let d = Date.parse('2024-05-28'); d < Date.parse('2031-05-28'); d += 9 * 86_400_000) {
      const day = new Date(d).toISOString().slice(0, 10);
      const q = redemptionQuote({ ...c, redeemed_date: day }, day);
      expect(q.redeemable && q.holder_amount_cents / 100).toBe(redemptionAmountOn(c.face_amount, c.interest_rate, c.sale_date, day));
    }
  });

  it('refuses a redemption before the sale', () => {
    expect(() => redemptionAmountOn(1000, 18, '2025-06-02', '2025-06-01')).toThrow(RangeError);
  });
});
