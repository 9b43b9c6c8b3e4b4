import { describe, expect, it } from 'vitest';
import { interestMonths, redemptionAmount, redemptionAmountOn } from '../../../scripts/generator/redemption.ts';

describe('interestMonths: each month or part thereof, at least 1', () => {
  it.each([
    ['2025-06-01', '2025-06-01', 1],
    ['2025-06-01', '2025-06-20', 1],
    ['2025-06-01', '2025-07-01', 1],
    ['2025-06-01', '2025-07-02', 2],
    ['2025-06-15', '2025-07-14', 1],
    ['2025-06-15', '2025-07-15', 1],
    ['2025-06-15', '2025-07-16', 2],
    ['2025-06-01', '2026-06-01', 12],
    ['2025-06-01', '2026-06-02', 13],
    ['2025-06-01', '2026-07-15', 14],
    ['2025-01-31', '2025-02-28', 1],
    ['2025-01-31', '2025-03-01', 2],
    ['2024-01-31', '2024-02-29', 1],
    ['2024-01-31', '2024-02-28', 1],
    ['2025-12-31', '2026-01-31', 1],
    ['2025-12-31', '2026-02-01', 2],
    ['2016-06-01', '2023-06-01', 84],
  ])('%s to %s is %i', (sale, redeemed, months) => {
    expect(interestMonths(sale, redeemed)).toBe(months);
  });

  it('rejects a redemption before the sale and malformed dates', () => {
    expect(() => interestMonths('2025-06-02', '2025-06-01')).toThrow(RangeError);
    expect(() => interestMonths('06/01/2025', '2025-07-01')).toThrow(RangeError);
    expect(() => interestMonths('2025-02-30', '2025-07-01')).toThrow(RangeError);
    expect(() => interestMonths('2025-06-01', '2025-13-01')).toThrow(RangeError);
  });
});

describe('redemptionAmount', () => {
  it('a 0 percent bid earns nothing, not even the 5 percent minimum', () => {
    expect(redemptionAmount(1000, 0, 1)).toBe(1000);
    expect(redemptionAmount(1000, 0, 24)).toBe(1000);
    expect(redemptionAmount(1234.56, 0, 84)).toBe(1234.56);
  });

  it('the 5 percent mandatory charge applies when accrued interest is less', () => {
    expect(redemptionAmount(1000, 18, 1)).toBe(1050); // 1.5% accrued
    expect(redemptionAmount(1000, 18, 3)).toBe(1050); // 4.5% accrued
    expect(redemptionAmount(1000, 0.25, 24)).toBe(1050); // 0.5% accrued
    expect(redemptionAmount(1000, 5, 12)).toBe(1050); // exactly 5%
  });

  it('accrues rate/12 per month once above the minimum', () => {
    expect(redemptionAmount(1000, 18, 4)).toBe(1060);
    expect(redemptionAmount(1000, 18, 13)).toBe(1195); // 19.5%
    expect(redemptionAmount(1000, 18, 24)).toBe(1360);
    expect(redemptionAmount(1000, 12, 18)).toBe(1180);
    expect(redemptionAmount(2000, 6.75, 12)).toBe(2135);
    expect(redemptionAmount(1000, 5.25, 12)).toBe(1052.5);
  });

  it('rounds half up at the cent', () => {
    expect(redemptionAmount(1, 18, 13)).toBe(1.2); // 19.5 cents -> 20
    expect(redemptionAmount(0.1, 18, 1)).toBe(0.11); // minimum 0.5 cents -> 1
    expect(redemptionAmount(0.3, 18, 1)).toBe(0.32); // minimum 1.5 cents -> 2
    expect(redemptionAmount(0.7, 18, 13)).toBe(0.84); // 13.65 cents -> 14
    expect(redemptionAmount(0.1, 18, 13)).toBe(0.12); // 1.95 cents -> 2
    expect(redemptionAmount(3.33, 18, 12)).toBe(3.93); // 59.94 cents -> 60
    expect(redemptionAmount(1.11, 18, 12)).toBe(1.31); // 19.98 cents -> 20
  });

  it('stays exact on very large amounts and long holding periods', () => {
    expect(redemptionAmount(999_999_999.99, 18, 120)).toBe(2_799_999_999.97);
    expect(redemptionAmount(123_456.78, 0.25, 84)).toBe(129_629.62);
  });

  it('matches an independent rational computation over every quarter-point rate and 1..96 months', () => {
    const wrong: string[] = [];
    for (const face of [0.01, 0.37, 312.45, 1234.56, 98_765.43]) {
      const faceCents = Math.round(face * 100);
      for (let quarters = 0; quarters <= 72; quarters++) {
        for (let months = 1; months <= 96; months++) {
          const got = Math.round(redemptionAmount(face, quarters / 4, months) * 100) - faceCents;
          if (quarters === 0) {
            if (got !== 0) wrong.push(`${face} at 0 for ${months}: ${got}`);
            continue;
          }
          // exact interest in cents = max(face*q*m/4800, face*5/100); half-up means got - 1/2 <= exact < got + 1/2.
          const accrued4800 = faceCents * quarters * months;
          const minimum4800 = faceCents * 240;
          const exact4800 = Math.max(accrued4800, minimum4800);
          if (!(got * 4800 - 2400 <= exact4800 && exact4800 < got * 4800 + 2400))
            wrong.push(`${face} at ${quarters / 4} for ${months}: ${got} cents`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('rejects rates outside 0..18, fractional cents and months below 1', () => {
    expect(() => redemptionAmount(1000, 18.25, 1)).toThrow(RangeError);
    expect(() => redemptionAmount(1000, -0.25, 1)).toThrow(RangeError);
    expect(() => redemptionAmount(1000, 0.125, 1)).toThrow(RangeError);
    expect(() => redemptionAmount(1000.005, 18, 1)).toThrow(RangeError);
    expect(() => redemptionAmount(-1, 18, 1)).toThrow(RangeError);
    expect(() => redemptionAmount(1000, 18, 0)).toThrow(RangeError);
    expect(() => redemptionAmount(1000, 18, 1.5)).toThrow(RangeError);
  });

  it('redemptionAmountOn counts months between the dates', () => {
    expect(redemptionAmountOn(1000, 18, '2025-06-01', '2026-06-02')).toBe(1195);
    expect(redemptionAmountOn(1000, 18, '2025-06-01', '2025-06-01')).toBe(1050);
    expect(redemptionAmountOn(1000, 0, '2025-06-01', '2027-06-01')).toBe(1000);
  });
});
