import { type Clause, inclusiveRange, listQuery, namedFilters } from '../../../query/filters.ts';
import { marketScope, RATE_BUCKETS, SOLD_TO_BIDDER } from '../bid-rates/build-query.ts';
import type { RedemptionScope } from './params.ts';

/**
 * GET /analytics/redemption-curve and /analytics/expected-yield: a scope and a day -> one
 * size-0 search whose counts hold everything the answer needs. Pure; fixture-tested in
 * fixtures/queries/analytics-redemption/.
 *
 * A certificate's interest months depend only on its sale year and the month of the day asked
 * about (domain/redemption-quote.ts), so the counts the curve needs are: the cohort by sale
 * year, and within each year its redemptions (on or before the day) by calendar month. Both
 * are histograms, which count every document (no size cut-off, exact on any number of shards);
 * everything else is arithmetic on them (counts.ts). The yield adds one exact terms bucket per
 * winning rate, for the shares won above and at each rate.
 */

/** The scope: certificate search's county, tax_year, vendor and face fragments, plus the winning rate. */
export function scopeQuery(p: RedemptionScope): Clause {
  return listQuery(
    undefined,
    namedFilters([
      ...marketScope(p),
      ['face', inclusiveRange('face_amount', p.face_min, p.face_max)],
      ['rate', inclusiveRange('interest_rate', p.rate_min, p.rate_max)],
    ]),
  );
}

/**
 * The certificates a curve can follow: sold to a bidder (the clearing-rate rule) and not
 * cancelled, since a cancelled certificate was void or escheated and no owner could redeem it.
 */
export function cohortQuery(p: RedemptionScope): Clause {
  return { bool: { filter: [scopeQuery(p), SOLD_TO_BIDDER], must_not: [{ term: { status: 'cancelled' } }] } };
}

export function buildRedemptionCounts(p: RedemptionScope, asOf: string, options: { rates: boolean }): Clause {
  return {
    size: 0,
    track_total_hits: false,
    query: cohortQuery(p),
    aggs: {
      // Answers "as_of is before every sale in scope" apart from "nothing in scope".
      first_sale: { min: { field: 'sale_date', format: 'yyyy-MM-dd' } },
      sold_by_day: {
        filter: { range: { sale_date: { lte: asOf } } },
        aggs: {
          by_sale_year: {
            date_histogram: { field: 'sale_date', calendar_interval: 'year', format: 'yyyy', min_doc_count: 1 },
            aggs: {
              redeemed: {
                filter: { range: { redeemed_date: { lte: asOf } } },
                aggs: {
                  by_month: {
                    date_histogram: { field: 'redeemed_date', calendar_interval: 'month', format: 'yyyy-MM', min_doc_count: 1 },
                  },
                },
              },
            },
          },
          ...(options.rates
            ? {
                by_rate: {
                  terms: { field: 'interest_rate', size: RATE_BUCKETS, shard_size: RATE_BUCKETS, order: { _key: 'asc' } },
                },
              }
            : {}),
        },
      },
    },
  };
}
