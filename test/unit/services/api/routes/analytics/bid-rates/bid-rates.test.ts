import { describe, expect, it } from 'vitest';
import { InexactAggregationError } from '../../../../../../../services/api/query/exact-terms.ts';
import { mapBidRates, sumToCents } from '../../../../../../../services/api/routes/analytics/bid-rates/map-row.ts';
import { BidRateParams } from '../../../../../../../services/api/routes/analytics/bid-rates/params.ts';
import {
  fraction4,
  mergeRates,
  nearestRank,
  type RateCount,
  rateAtRank,
  summarizeRates,
} from '../../../../../../../services/api/routes/analytics/bid-rates/rate-stats.ts';
import { BidRateAnalytics } from '../../../../../../../services/api/routes/analytics/bid-rates/row.ts';

/**
 * Ten certificates, ascending: 0, 0.25 x4, 1 x2, 5, 5.25, 18. Worked by hand:
 * p25 = rank ceil(2.5) = 3 -> 0.25; median = rank 5 -> 0.25; p75 = rank ceil(7.5) = 8 -> 5;
 * mean = (0 + 1 + 2 + 5 + 5.25 + 18) / 10 = 3.125;
 * face-weighted = (0.25 x 8000 + 1 x 2000 + 5 x 500 + 5.25 x 300 + 18 x 100) / 11900
 *               = 9875 / 11900 = 0.829831... -> 0.8298.
 */
const TEN: RateCount[] = [
  { rate: 0, certificates: 1, faceCents: 100_000 },
  { rate: 0.25, certificates: 4, faceCents: 800_000 },
  { rate: 1, certificates: 2, faceCents: 200_000 },
  { rate: 5, certificates: 1, faceCents: 50_000 },
  { rate: 5.25, certificates: 1, faceCents: 30_000 },
  { rate: 18, certificates: 1, faceCents: 10_000 },
];

describe('rate statistics from exact counts', () => {
  it('ranks percentiles by nearest rank, ceil(p x n), never below 1', () => {
    expect([25, 50, 75, 100].map((p) => nearestRank(p, 4))).toEqual([1, 2, 3, 4]);
    expect([25, 50, 75, 100].map((p) => nearestRank(p, 5))).toEqual([2, 3, 4, 5]);
    expect([0, 25, 50, 75, 100].map((p) => nearestRank(p, 1))).toEqual([1, 1, 1, 1, 1]);
    expect(rateAtRank(TEN, 1)).toBe(0);
    expect(rateAtRank(TEN, 2)).toBe(0.25);
    expect(rateAtRank(TEN, 5)).toBe(0.25);
    expect(rateAtRank(TEN, 6)).toBe(1);
    expect(rateAtRank(TEN, 10)).toBe(18);
    expect(() => rateAtRank(TEN, 11)).toThrow(RangeError);
  });

  it('rounds fractions half up to 4 decimals, in integers', () => {
    expect(fraction4(1, 32)).toBe(0.0313); // 0.03125: half up, not to even
    expect(fraction4(3, 32)).toBe(0.0938); // 0.09375
    expect(fraction4(1, 3)).toBe(0.3333);
    expect(fraction4(2, 3)).toBe(0.6667);
    expect(fraction4(7, 7)).toBe(1);
    expect(fraction4(0, 7)).toBe(0);
    expect(fraction4(0, 0)).toBeNull();
  });

  it('summarizes ten certificates as worked by hand', () => {
    expect(summarizeRates(TEN)).toEqual({
      certificates: 10,
      faceCents: 1_190_000,
      rate: { min: 0, p25: 0.25, median: 0.25, p75: 5, max: 18, mean: 3.125, face_weighted_mean: 0.8298 },
      shares: { zero: 0.1, quarter: 0.4, at_or_below_1: 0.7, above_5: 0.2, at_18: 0.1 },
    });
  });

  it('answers nulls, not zeros, for no certificates', () => {
    expect(summarizeRates([])).toEqual({
      certificates: 0,
      faceCents: 0,
      rate: { min: null, p25: null, median: null, p75: null, max: null, mean: null, face_weighted_mean: null },
      shares: { zero: null, quarter: null, at_or_below_1: null, above_5: null, at_18: null },
    });
  });

  it('merges counties rate by rate, ascending, adding counts and cents', () => {
    const a = [
      { rate: 0.25, certificates: 2, faceCents: 101 },
      { rate: 18, certificates: 1, faceCents: 5 },
    ];
    const b = [
      { rate: 0, certificates: 1, faceCents: 7 },
      { rate: 0.25, certificates: 3, faceCents: 299 },
    ];
    expect(mergeRates([a, b])).toEqual([
      { rate: 0, certificates: 1, faceCents: 7 },
      { rate: 0.25, certificates: 5, faceCents: 400 },
      { rate: 18, certificates: 1, faceCents: 5 },
    ]);
  });
});

/** An engine answer for buildBidRates, shaped as OpenSearch writes it. */
function answer(counties: { key: string; rates: [number, number, number][] }[], struck = 0, extra: Record<string, unknown> = {}) {
  const buckets = counties.map((c) => ({
    key: c.key,
    doc_count: c.rates.reduce((s, [, n]) => s + n, 0),
    by_rate: {
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: c.rates.map(([rate, n, face]) => ({ key: rate, doc_count: n, face: { value: face } })),
    },
  }));
  return {
    struck_to_county: { doc_count: struck },
    sold: {
      doc_count: buckets.reduce((s, b) => s + b.doc_count, 0),
      by_county: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets, ...extra },
    },
  };
}

describe('mapping the engine answer', () => {
  const scope = BidRateParams.parse({ county: ['broward', 'alachua', 'duval'], tax_year: [2024] });

  it('rounds each bucket face sum (a double) to whole cents', () => {
    expect(sumToCents({ value: 1234.5600000000002 })).toBe(123456);
    expect(sumToCents({ value: 0.30000000000000004 })).toBe(30);
    expect(sumToCents({ value: 1e9 + 0.0099999 })).toBe(100_000_000_001);
    expect(sumToCents(undefined)).toBe(0);
  });

  it('computes totals, histogram and counties from the (county, rate) buckets', () => {
    const data = mapBidRates(
      scope,
      answer(
        [
          // alachua: 0.25, 0.25, 8 -> median 0.25, quarter 2/3, above 5 1/3
          {
            key: 'alachua',
            rates: [
              [0.25, 2, 1000.1],
              [8, 1, 200.0000000001],
            ],
          },
          // broward: 0.25 x2, 18 -> same count as alachua: ties go by slug
          {
            key: 'broward',
            rates: [
              [0.25, 2, 0.30000000000000004],
              [18, 1, 99.99],
            ],
          },
          // duval: four certificates, most first
          {
            key: 'duval',
            rates: [
              [0, 1, 50],
              [5, 1, 60],
              [5.25, 2, 70.07],
            ],
          },
        ],
        4,
      ),
    );
    expect(BidRateAnalytics.parse(data)).toEqual(data);
    expect(data.scope).toEqual({ county: ['broward', 'alachua', 'duval'], tax_year: [2024], vendor: null });
    expect(data.certificates).toBe(10);
    expect(data.struck_to_county).toBe(4);
    // 1000.10 + 200.00 + 0.30 + 99.99 + 50 + 60 + 70.07 = 1480.46
    expect(data.face_amount).toBe(1480.46);
    expect(data.histogram).toEqual([
      { rate: 0, certificates: 1, face_amount: 50 },
      { rate: 0.25, certificates: 4, face_amount: 1000.4 },
      { rate: 5, certificates: 1, face_amount: 60 },
      { rate: 5.25, certificates: 2, face_amount: 70.07 },
      { rate: 8, certificates: 1, face_amount: 200 },
      { rate: 18, certificates: 1, face_amount: 99.99 },
    ]);
    // Ascending: 0, .25 x4, 5, 5.25, 5.25, 8, 18: ranks 3, 5, 8 -> 0.25, 0.25, 5.25.
    expect(data.rate).toEqual({ min: 0, p25: 0.25, median: 0.25, p75: 5.25, max: 18, mean: 4.25, face_weighted_mean: 2.9165 });
    // face-weighted: (0.25 x 100040 + 5 x 6000 + 5.25 x 7007 + 8 x 20000 + 18 x 9999) / 148046 cents
    //              = 431778.75 / 148046 = 2.91653... -> 2.9165
    expect(data.shares).toEqual({ zero: 0.1, quarter: 0.4, at_or_below_1: 0.5, above_5: 0.4, at_18: 0.1 });
    expect(data.by_county).toEqual([
      { county: 'duval', certificates: 4, median: 5, share_quarter: 0, share_above_5: 0.5 },
      { county: 'alachua', certificates: 3, median: 0.25, share_quarter: 0.6667, share_above_5: 0.3333 },
      { county: 'broward', certificates: 3, median: 0.25, share_quarter: 0.6667, share_above_5: 0.3333 },
    ]);
  });

  it('answers zeros and nulls when nothing is in scope or the index is missing', () => {
    const empty = mapBidRates(BidRateParams.parse({}), answer([], 2));
    expect(empty).toEqual({
      scope: { county: null, tax_year: null, vendor: null },
      certificates: 0,
      struck_to_county: 2,
      face_amount: 0,
      rate: { min: null, p25: null, median: null, p75: null, max: null, mean: null, face_weighted_mean: null },
      shares: { zero: null, quarter: null, at_or_below_1: null, above_5: null, at_18: null },
      histogram: [],
      by_county: [],
    });
    expect(mapBidRates(BidRateParams.parse({}), undefined)).toEqual({ ...empty, struck_to_county: 0 });
  });

  it('refuses an answer that is not exact, instead of returning a wrong figure', () => {
    const one = [{ key: 'alachua', rates: [[0.25, 2, 10] as [number, number, number]] }];
    expect(() => mapBidRates(scope, answer(one, 0, { sum_other_doc_count: 3 }))).toThrow(InexactAggregationError);
    expect(() => mapBidRates(scope, answer(one, 0, { doc_count_error_upper_bound: 1 }))).toThrow(InexactAggregationError);
    // A county's rate buckets cut short by its own size.
    const cut = answer(one);
    cut.sold.by_county.buckets[0]!.by_rate.sum_other_doc_count = 1;
    expect(() => mapBidRates(scope, cut)).toThrow(/sold\.by_county\[alachua\]\.by_rate/);
    // Certificates without a rate would fall out of every figure unseen.
    const missing = answer(one);
    missing.sold.by_county.buckets[0]!.doc_count = 3;
    missing.sold.doc_count = 3;
    expect(() => mapBidRates(scope, missing)).toThrow(/hold 2 of 3 documents/);
  });
});
