import { UNSOLD_STATUSES } from '../../../../domain/sold-to-bidder.ts';
import { anyOf, anyOfIgnoringCase, type Clause, listQuery, namedFilters } from '../../../query/filters.ts';
import { placeFilters } from '../../certificates/build-place-filters.ts';
import type { BidRateParams } from './params.ts';

/**
 * GET /analytics/bid-rates: parameters -> one size-0 search whose aggregations
 * hold everything the answer needs. Pure; fixture-tested in
 * fixtures/queries/analytics-bid-rates/.
 *
 * The figures come from exact counts, not from the engine's estimating
 * percentiles: one bucket per (county, rate) with its certificate count and face
 * sum. Percentiles, shares, means, the histogram and the per-county rows are all
 * computed from those buckets (map-row.ts), so the answer is one compact request
 * (at most 67 x 73 buckets on quarter-point bids) and exact on any number of shards.
 */

/** county_slug holds one of the 67 Florida counties. */
export const COUNTY_BUCKETS = 67;
/**
 * Bids go down from 18 in quarter points, so a rate takes at most 73 values (0 to
 * 18 by 0.25). The size also covers every rate written in hundredths (1,801
 * values) at no cost: the engine sizes its queues by the values present. A rate
 * beyond that would leave sum_other_doc_count above 0, and the read refuses such
 * an answer (query/exact-terms.ts) instead of returning a wrong percentile.
 */
export const RATE_BUCKETS = 1801;

/** Sold to a bidder: not struck to the county, no longer waiting for the sale (domain/sold-to-bidder.ts). */
export const SOLD_TO_BIDDER: Clause = {
  bool: { must_not: [{ term: { struck_to_county: true } }, { terms: { status: [...UNSOLD_STATUSES] } }] },
};

/** An analytic scope's county, tax_year, vendor and place (geo and parcel roll): the same fragments as certificate search's. */
export function marketScope(p: BidRateParams): [string, Clause | undefined][] {
  return [
    ['county', p.county && anyOf('county_slug', p.county)],
    ['tax_year', p.tax_year && anyOf('tax_year', p.tax_year)],
    ['vendor', p.vendor && anyOfIgnoringCase('vendor', p.vendor)],
    ...placeFilters(p),
  ];
}

export function scopeQuery(p: BidRateParams): Clause {
  return listQuery(undefined, namedFilters(marketScope(p)));
}

export function buildBidRates(p: BidRateParams): Clause {
  return {
    size: 0,
    track_total_hits: false,
    query: scopeQuery(p),
    aggs: {
      struck_to_county: { filter: { term: { struck_to_county: true } } },
      sold: {
        filter: SOLD_TO_BIDDER,
        aggs: {
          // Ordered by key, so no shard's cut-off can make a count an estimate; the
          // mapper orders the counties by certificates.
          by_county: {
            terms: { field: 'county_slug', size: COUNTY_BUCKETS, shard_size: COUNTY_BUCKETS, order: { _key: 'asc' } },
            aggs: {
              // depth_first: every bucket is kept, so the engine's default for a numeric field
              // (breadth_first, which buffers doc ids to replay the face sums of the kept buckets
              // only) would buy nothing and cost a buffer.
              by_rate: {
                terms: {
                  field: 'interest_rate',
                  size: RATE_BUCKETS,
                  shard_size: RATE_BUCKETS,
                  order: { _key: 'asc' },
                  collect_mode: 'depth_first',
                },
                aggs: { face: { sum: { field: 'face_amount' } } },
              },
            },
          },
        },
      },
    },
  };
}
