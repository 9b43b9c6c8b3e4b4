import { exactBuckets } from '../../../query/exact-terms.ts';
import type { BidRateParams } from './params.ts';
import { mergeRates, type RateCount, summarizeRates } from './rate-stats.ts';
import type { BidRateAnalytics } from './row.ts';

/**
 * The engine's answer to buildBidRates -> the public object (pure). Every terms
 * aggregation is read through exactBuckets, which refuses an answer that is not
 * exact, and every county's rate buckets must hold all of its certificates.
 */

interface SingleValue {
  value?: number | null;
}

/**
 * Face sums in integer cents. face_amount is a scaled_float (factor 100): each
 * face is stored as whole cents, but a sum aggregation adds them as doubles
 * (cents / 100) and answers a double; the mapping has no exact-cents field to sum
 * instead. So the sum is taken per (county, rate) bucket and each bucket's sum is
 * rounded to the nearest cent. Why that is exact: each term is within half an ulp
 * (2^-53 relative) of its true value, and the engine sums with compensated (Kahan)
 * summation on the shard and again when it merges shards, whose error is a few
 * ulps of the total; so a bucket's sum is within about 4 x 2^-53 x its total of
 * the true total, under half a cent for any bucket below 10^13 dollars. Rounding
 * then lands on the true cents, and every larger total is added from those
 * integers, never from dollars.
 */
export function sumToCents(sum: SingleValue | undefined): number {
  return Math.round((sum?.value ?? 0) * 100);
}

/** One county's ascending per-rate counts from its by_rate buckets. */
function countyRates(bucket: Record<string, unknown>, county: string, docs: number): RateCount[] {
  return exactBuckets(bucket.by_rate, `sold.by_county[${county}].by_rate`, docs).map((b) => ({
    rate: Number(b.key),
    certificates: b.doc_count,
    faceCents: sumToCents(b.face as SingleValue | undefined),
  }));
}

const cents = (c: number) => c / 100;

export function mapBidRates(params: BidRateParams, aggregations: Record<string, unknown> | undefined): BidRateAnalytics {
  const aggs = (aggregations ?? {}) as { struck_to_county?: { doc_count: number }; sold?: { doc_count: number; by_county?: unknown } };
  const soldDocs = aggs.sold?.doc_count ?? 0;
  const counties = exactBuckets(aggs.sold?.by_county, 'sold.by_county', soldDocs).map((b) => {
    const county = String(b.key);
    return { county, rates: countyRates(b, county, b.doc_count) };
  });
  const histogram = mergeRates(counties.map((c) => c.rates));
  const all = summarizeRates(histogram);
  return {
    scope: { county: params.county ?? null, tax_year: params.tax_year ?? null, vendor: params.vendor ?? null },
    certificates: all.certificates,
    struck_to_county: aggs.struck_to_county?.doc_count ?? 0,
    face_amount: cents(all.faceCents),
    rate: all.rate,
    shares: all.shares,
    histogram: histogram.map((h) => ({ rate: h.rate, certificates: h.certificates, face_amount: cents(h.faceCents) })),
    by_county: counties
      .map(({ county, rates }) => {
        const s = summarizeRates(rates);
        // A county bucket exists only with certificates, so its median and shares are never null.
        return {
          county,
          certificates: s.certificates,
          median: s.rate.median ?? 0,
          share_quarter: s.shares.quarter ?? 0,
          share_above_5: s.shares.above_5 ?? 0,
        };
      })
      .sort((a, b) => b.certificates - a.certificates || (a.county < b.county ? -1 : a.county > b.county ? 1 : 0)),
  };
}
