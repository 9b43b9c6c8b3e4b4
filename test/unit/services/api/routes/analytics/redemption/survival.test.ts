import { describe, expect, it } from 'vitest';
import { mapCohortCounts, mapFirstSale } from '../../../../../../../services/api/routes/analytics/redemption/counts.ts';
import {
  expectedYield,
  lowestRateMeeting,
  rateYields,
} from '../../../../../../../services/api/routes/analytics/redemption/expected-yield.ts';
import {
  kaplanMeier,
  medianMonths,
  observedThrough,
  redeemedBy,
  survivalAt,
} from '../../../../../../../services/api/routes/analytics/redemption/survival.ts';
import { InexactAggregationError } from '../../../../../../../services/api/query/exact-terms.ts';

/**
 * Ten certificates sold in 2023 (June 2023 is interest month 1), as of 2024-05-15 (month 12):
 * two redeemed in April 2023 (month 0), three in July 2023 (month 2), one in January 2024
 * (month 8); four still out, censored at month 12. Worked by hand:
 *   S(0) = 8/10 = 0.8; S(2) = 0.8 x 5/8 = 0.5 (the median); S(8) = 0.5 x 4/5 = 0.4; S(12) = 0.4.
 * Expected yield over f(0) = 0.2, f(2) = 0.3, f(8) = 0.1, with y(r, k) = max(r, 60 / k):
 *   r = 0.25: (0.3 x 30 + 0.1 x 7.5) / 0.6 = 16.25; r = 12: (9 + 1.2) / 0.6 = 17; r = 18: 18.
 */
const AS_OF = '2024-05-15';
const answer = {
  months: {
    by_sale_year: {
      buckets: [
        {
          key_as_string: '2023',
          doc_count: 10,
          by_month: {
            buckets: [
              { key_as_string: '2023-04', doc_count: 2 },
              { key_as_string: '2023-07', doc_count: 3 },
              { key_as_string: '2024-01', doc_count: 1 },
            ],
          },
        },
      ],
    },
  },
  late: { by_sale_year: { buckets: [] } },
  rates: {
    by_rate: {
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [
        { key: 0.25, doc_count: 7 },
        { key: 12, doc_count: 2 },
        { key: 18, doc_count: 1 },
      ],
    },
  },
};

describe('the cohort counts by interest month', () => {
  it('places a redemption at the months of its redeemed_date and the rest at the months of as_of', () => {
    const c = mapCohortCounts(answer, AS_OF);
    expect(c.certificates).toBe(10);
    expect(c.redeemed.length).toBe(85);
    expect(c.redeemed[0]).toBe(2);
    expect(c.redeemed[2]).toBe(3);
    expect(c.redeemed[8]).toBe(1);
    expect(c.redeemed.reduce((a, b) => a + b, 0)).toBe(6);
    expect(c.censored[12]).toBe(4);
    expect(c.censored.reduce((a, b) => a + b, 0)).toBe(4);
    expect(c.rates).toEqual([
      { rate: 0.25, certificates: 7 },
      { rate: 12, certificates: 2 },
      { rate: 18, certificates: 1 },
    ]);
  });

  it("counts a redemption later in the day's own month as not yet redeemed: censored at that month", () => {
    // The month histogram's bound lets May 2024 in; the late search finds one of them after May 15.
    const withLate = {
      months: {
        by_sale_year: {
          buckets: [
            {
              key_as_string: '2023',
              doc_count: 4,
              by_month: {
                buckets: [
                  { key_as_string: '2023-07', doc_count: 1 },
                  { key_as_string: '2024-05', doc_count: 2 },
                ],
              },
            },
          ],
        },
      },
      late: { by_sale_year: { buckets: [{ key_as_string: '2023', doc_count: 1 }] } },
    };
    const c = mapCohortCounts(withLate, AS_OF);
    expect(c.redeemed[2]).toBe(1);
    expect(c.redeemed[12]).toBe(1);
    expect(c.censored[12]).toBe(2);
    expect(c.certificates).toBe(4);
  });

  it('caps a time at 84 months', () => {
    const old = {
      months: {
        by_sale_year: {
          buckets: [{ key_as_string: '2015', doc_count: 3, by_month: { buckets: [{ key_as_string: '2022-07', doc_count: 1 }] } }],
        },
      },
      late: {},
    };
    const c = mapCohortCounts(old, '2026-11-22');
    // July 2022 is month (2022 - 2015) x 12 + 2 = 86, and as_of month 138: both count at 84.
    expect(c.redeemed[84]).toBe(1);
    expect(c.censored[84]).toBe(2);
  });

  it('refuses late redemptions of a year the cohort does not hold, and a rate bucket short of the cohort', () => {
    expect(() =>
      mapCohortCounts({ ...answer, late: { by_sale_year: { buckets: [{ key_as_string: '2019', doc_count: 1 }] } } }, AS_OF),
    ).toThrow(InexactAggregationError);
    const short = { ...answer.rates.by_rate, buckets: answer.rates.by_rate.buckets.slice(1) };
    expect(() => mapCohortCounts({ ...answer, rates: { by_rate: short } }, AS_OF)).toThrow(InexactAggregationError);
  });

  it('reads the first sale, null when the scope holds none', () => {
    expect(mapFirstSale({ first_sale: { value: 1685404800000, value_as_string: '2023-05-30' } })).toBe('2023-05-30');
    expect(mapFirstSale({ first_sale: { value: null } })).toBeNull();
  });
});

describe('Kaplan-Meier, exact', () => {
  const s = kaplanMeier(mapCohortCounts(answer, AS_OF));

  it('counts at risk as the cohort less everything before the month, censored still at risk in theirs', () => {
    expect(s.atRisk.slice(0, 14)).toEqual([10, 8, 8, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 0]);
    expect(s.atRisk[84]).toBe(0);
  });

  it('multiplies 1 - d/n month by month and carries S past the data', () => {
    expect([0, 1, 2, 7, 8, 12, 13, 84].map((k) => survivalAt(s, k))).toEqual([0.8, 0.8, 0.5, 0.5, 0.4, 0.4, 0.4, 0.4]);
    expect(medianMonths(s)).toBe(2);
    expect(observedThrough(s)).toBe(12);
    expect([12, 24, 84].map((k) => redeemedBy(s, k))).toEqual([0.6, 0.6, 0.6]);
  });

  it('rounds half up once from the exact value', () => {
    const third = kaplanMeier({
      certificates: 3,
      redeemed: [1, ...new Array<number>(84).fill(0)],
      censored: [0, 2, ...new Array<number>(83).fill(0)],
      rates: [],
    });
    expect(survivalAt(third, 0)).toBe(0.666667);
    expect(redeemedBy(third, 0)).toBe(0.333333);
    expect(medianMonths(third)).toBeNull();
  });

  it('answers an empty cohort with nulls, never a division by zero', () => {
    const empty = kaplanMeier({
      certificates: 0,
      redeemed: new Array<number>(85).fill(0),
      censored: new Array<number>(85).fill(0),
      rates: [],
    });
    expect(survivalAt(empty, 0)).toBeNull();
    expect(redeemedBy(empty, 84)).toBeNull();
    expect(medianMonths(empty)).toBeNull();
    expect(observedThrough(empty)).toBeNull();
    expect(expectedYield(empty, 84, 5)).toBeNull();
    expect(rateYields(empty, 84, [5], [])).toEqual([{ rate: 5, expected_yield: null, won_above: null, won_at: null }]);
  });
});

describe('expected yield by bid rate', () => {
  const counts = mapCohortCounts(answer, AS_OF);
  const s = kaplanMeier(counts);

  it('annualises the greater of the accrued interest and the 5% minimum', () => {
    expect(expectedYield(s, 84, 0.25)).toBe(16.25);
    expect(expectedYield(s, 84, 12)).toBe(17);
    expect(expectedYield(s, 84, 18)).toBe(18);
    // A 0% bid earns nothing, whenever it redeems.
    expect(expectedYield(s, 84, 0)).toBe(0);
  });

  it('counts only redemptions within the horizon, month 0 earning nothing', () => {
    // H = 2: f(0) = 0.2, f(2) = 0.3 -> 0.3 x 30 / 0.5 = 18 for any rate up to 30.
    expect(expectedYield(s, 2, 0.25)).toBe(18);
    // H = 1: only the month-0 redemptions, which earn no interest.
    expect(expectedYield(s, 1, 0.25)).toBe(0);
    expect(redeemedBy(s, 1)).toBe(0.2);
  });

  it('is null when nothing redeemed within the horizon', () => {
    const late = kaplanMeier({
      certificates: 2,
      redeemed: [0, 0, 0, 1, ...new Array<number>(81).fill(0)],
      censored: [0, 0, 0, 1, ...new Array<number>(81).fill(0)],
      rates: [],
    });
    expect(expectedYield(late, 2, 5)).toBeNull();
    // Month 3: max(5 x 3 / 12, 5) x 12 / 3 = 20.
    expect(expectedYield(late, 3, 5)).toBe(20);
  });

  it('gives the shares won above and at each rate, and the lowest rate meeting a target', () => {
    const rows = rateYields(s, 84, [0.25, 12, 18], counts.rates);
    expect(rows).toEqual([
      { rate: 0.25, expected_yield: 16.25, won_above: 0.3, won_at: 0.7 },
      { rate: 12, expected_yield: 17, won_above: 0.1, won_at: 0.2 },
      { rate: 18, expected_yield: 18, won_above: 0, won_at: 0.1 },
    ]);
    expect(lowestRateMeeting(rows, 17)).toBe(12);
    expect(lowestRateMeeting(rows, 16)).toBe(0.25);
    expect(lowestRateMeeting(rows, 18.0001)).toBeNull();
  });
});
