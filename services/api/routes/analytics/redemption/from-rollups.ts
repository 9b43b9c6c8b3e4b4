import type { Clause } from '../../../query/filters.ts';
import { RATE_BUCKETS } from '../bid-rates/build-query.ts';
import { asCertificateTerms, COUNT, kind, type MarketScope, rollupsCover, sumOf } from '../rollup-read.ts';
import { nextMonth } from './build-query.ts';
import type { RedemptionScope } from './params.ts';

/**
 * The redemption curve and expected yield from rollups (rollup-read.ts): the redemptions rollups
 * hold the cohort (sold to a bidder, not cancelled) by sale day and month redeemed, with each
 * day's redemptions of that month; the rates rollups its winning rates. Their answer goes back
 * in the shape of buildRedemptionCounts' searches (months, late, rates) and buildFirstSale's, so
 * mapCohortCounts and mapFirstSale read either. Pure.
 */

/** Rollups hold no face or rate bands: a scope with either is the scan's. */
export function redemptionRollupsCover(p: RedemptionScope): boolean {
  const ranges = [p.face_min, p.face_max, p.rate_min, p.rate_max];
  return ranges.every((v) => v === undefined) && rollupsCover(p as MarketScope);
}

const MONTH_BUCKETS = 1200;

const bySaleYear = { field: 'rollup.sale_date', calendar_interval: 'year', format: 'yyyy', min_doc_count: 1 };

/** Sold to a bidder, not cancelled: the rates rollups of the cohort. */
const cohortRates: Clause[] = [kind('rates'), { term: { 'rollup.class': 'sold' } }, { term: { 'rollup.cancelled': false } }];

export function redemptionRollupAggs(asOf: string, options: { rates: boolean }): Record<string, unknown> {
  const soldBy = { range: { 'rollup.sale_date': { lte: asOf } } };
  const month = asOf.slice(0, 7);
  const dayOfMonth = Number(asOf.slice(8, 10));
  // Redeemed later in the day's own month: each rollup of that month carries its redemptions by day.
  const laterDays = Object.fromEntries(
    Array.from({ length: 31 - dayOfMonth }, (_, i) => [`d${dayOfMonth + i + 1}`, { sum: { field: `rollup.day.d${dayOfMonth + i + 1}` } }]),
  );
  return {
    months: {
      filter: { bool: { filter: [kind('redemptions'), soldBy] } },
      aggs: {
        by_sale_year: {
          date_histogram: bySaleYear,
          aggs: {
            ...COUNT,
            by_month: {
              filter: { range: { 'rollup.redeemed_month': { lt: nextMonth(asOf) } } },
              aggs: { months: { terms: { field: 'rollup.redeemed_month', size: MONTH_BUCKETS, order: { _key: 'asc' } }, aggs: COUNT } },
            },
          },
        },
      },
    },
    late: {
      filter: { bool: { filter: [kind('redemptions'), soldBy, { term: { 'rollup.redeemed_month': month } }] } },
      aggs: { by_sale_year: { date_histogram: bySaleYear, aggs: laterDays } },
    },
    first_sale: {
      filter: { bool: { filter: cohortRates } },
      aggs: { first_sale: { min: { field: 'rollup.sale_date', format: 'yyyy-MM-dd' } } },
    },
    ...(options.rates
      ? {
          rates: {
            filter: { bool: { filter: [...cohortRates, soldBy] } },
            aggs: {
              by_rate: {
                terms: { field: 'rollup.interest_rate', size: RATE_BUCKETS, shard_size: RATE_BUCKETS, order: { _key: 'asc' } },
                aggs: COUNT,
              },
            },
          },
        }
      : {}),
  };
}

type Year = { key_as_string: string; count?: unknown; by_month?: { months?: { buckets: { key: string; count: unknown }[] } } } & Record<
  string,
  unknown
>;

/** The rollups' answer as the scan's: `months`, `late`, `rates` and `first` (buildFirstSale's aggregations). */
export function redemptionFromRollups(aggs: Record<string, unknown>): {
  months: Record<string, unknown>;
  late: Record<string, unknown>;
  rates?: Record<string, unknown>;
  first: Record<string, unknown>;
} {
  const a = aggs as {
    months?: { by_sale_year?: { buckets: Year[] } };
    late?: { by_sale_year?: { buckets: Year[] } };
    first_sale?: { first_sale?: unknown };
    rates?: { by_rate?: never };
  };
  const years = (a.months?.by_sale_year?.buckets ?? []).map((y) => ({
    key_as_string: y.key_as_string,
    doc_count: sumOf(y.count),
    by_month: {
      buckets: (y.by_month?.months?.buckets ?? [])
        .map((m) => ({ key_as_string: m.key, doc_count: sumOf(m.count) }))
        .filter((m) => m.doc_count > 0),
    },
  }));
  const late = (a.late?.by_sale_year?.buckets ?? [])
    .map((y) => ({
      key_as_string: y.key_as_string,
      doc_count: Object.entries(y)
        .filter(([k]) => /^d\d+$/.test(k))
        .reduce((n, [, v]) => n + sumOf(v), 0),
    }))
    .filter((y) => y.doc_count > 0);
  return {
    months: { by_sale_year: { buckets: years.filter((y) => y.doc_count > 0) } },
    late: { by_sale_year: { buckets: late } },
    ...(a.rates ? { rates: { by_rate: asCertificateTerms(a.rates.by_rate) } } : {}),
    first: { first_sale: a.first_sale?.first_sale },
  };
}
