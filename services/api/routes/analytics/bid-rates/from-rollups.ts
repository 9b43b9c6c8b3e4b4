import type { Clause } from '../../../query/filters.ts';
import { asCertificateTerms, COUNT, kind, type RollupTerms, sumOf } from '../rollup-read.ts';
import { COUNTY_BUCKETS, RATE_BUCKETS } from './build-query.ts';

/**
 * GET /analytics/bid-rates from rollups (rollup-read.ts): the rates rollups of the scope, split as
 * buildBidRates splits certificates (struck to the county; sold to a bidder by county and rate,
 * with face sums), and their answer back in the shape of buildBidRates' aggregations, so
 * mapBidRates reads either. Pure; fixture-tested beside the scan's builder.
 */

const ofClass = (c: string): Clause => ({ bool: { filter: [kind('rates'), { term: { 'rollup.class': c } }] } });

export function bidRateRollupAggs(): Record<string, unknown> {
  return {
    struck_to_county: { filter: ofClass('struck'), aggs: COUNT },
    sold: {
      filter: ofClass('sold'),
      aggs: {
        ...COUNT,
        by_county: {
          terms: { field: 'rollup.county_slug', size: COUNTY_BUCKETS, shard_size: COUNTY_BUCKETS, order: { _key: 'asc' } },
          aggs: {
            ...COUNT,
            by_rate: {
              terms: {
                field: 'rollup.interest_rate',
                size: RATE_BUCKETS,
                shard_size: RATE_BUCKETS,
                order: { _key: 'asc' },
                collect_mode: 'depth_first',
              },
              aggs: { ...COUNT, face: { sum: { field: 'rollup.face_cents' } } },
            },
          },
        },
      },
    },
  };
}

export function bidRatesFromRollups(aggs: Record<string, unknown>): Record<string, unknown> {
  const a = aggs as { struck_to_county?: { count: unknown }; sold?: { count: unknown; by_county?: RollupTerms } };
  return {
    struck_to_county: { doc_count: sumOf(a.struck_to_county?.count) },
    sold: {
      doc_count: sumOf(a.sold?.count),
      by_county: asCertificateTerms(a.sold?.by_county, (county) => ({
        by_rate: asCertificateTerms(county.by_rate as RollupTerms, (rate) => ({ face: { value: sumOf(rate.face) / 100 } })),
      })),
    },
  };
}
