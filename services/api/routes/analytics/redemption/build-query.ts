import { type Clause, inclusiveRange, listQuery, namedFilters } from '../../../query/filters.ts';
import { marketScope, RATE_BUCKETS, SOLD_TO_BIDDER } from '../bid-rates/build-query.ts';
import type { RedemptionScope } from './params.ts';

/**
 * GET /analytics/redemption-curve and /analytics/expected-yield: a scope and a day -> the
 * size-0 searches whose counts hold everything the answer needs, sent as one multi-search (the
 * engine runs them side by side). Pure; fixture-tested in fixtures/queries/analytics-redemption/.
 *
 * A certificate's interest months depend only on its sale year and the month of the day asked
 * about (domain/redemption-quote.ts), so the curve needs the cohort by sale year and, in each
 * year, its redemptions by calendar month. Histograms count every document (no size cut-off,
 * exact on any number of shards); everything else is arithmetic on them (counts.ts):
 *  - months: the cohort (sold on or before the day) by sale year, each year's redemptions by
 *    month up to the day's month. The month histogram's hard bound keeps later months out
 *    without a filter over every document (a filter there cost more than the histogram);
 *  - late: the few redeemed in the day's month but after the day, which that bound lets in:
 *    they had not redeemed yet on the day, so counts.ts moves them to the censored;
 *  - rates (the yield only): one exact terms bucket per winning rate.
 * The day of the first sale, for the 400 when the day precedes every sale, is asked for only
 * when the cohort is empty (buildFirstSale).
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

/** The last day of the day's month (YYYY-MM-DD), for the late search's upper end. */
function endOfMonth(day: string): string {
  const [y, m] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${day.slice(0, 7)}-${String(last).padStart(2, '0')}`;
}

/** The month after the day's, YYYY-MM. */
export function nextMonth(day: string): string {
  const [y, m] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

const bySaleYear = { field: 'sale_date', calendar_interval: 'year', format: 'yyyy', min_doc_count: 1 };

/** [months, late] or [months, late, rates]: the bodies of one multi-search. */
export function buildRedemptionCounts(p: RedemptionScope, asOf: string, options: { rates: boolean }): Clause[] {
  const soldByDay = (more: Clause[] = []): Clause => ({
    bool: { filter: [cohortQuery(p), { range: { sale_date: { lte: asOf } } }, ...more] },
  });
  const months: Clause = {
    size: 0,
    track_total_hits: false,
    query: soldByDay(),
    aggs: {
      by_sale_year: {
        date_histogram: bySaleYear,
        aggs: {
          by_month: {
            date_histogram: {
              field: 'redeemed_date',
              calendar_interval: 'month',
              format: 'yyyy-MM',
              min_doc_count: 1,
              // Exclusive, in the histogram's own format: up to the day's month, whose redemptions late sorts out.
              hard_bounds: { max: nextMonth(asOf) },
            },
          },
        },
      },
    },
  };
  const late: Clause = {
    size: 0,
    track_total_hits: false,
    query: soldByDay([{ range: { redeemed_date: { gt: asOf, lte: endOfMonth(asOf) } } }]),
    aggs: { by_sale_year: { date_histogram: bySaleYear } },
  };
  if (!options.rates) return [months, late];
  const rates: Clause = {
    size: 0,
    track_total_hits: false,
    query: soldByDay(),
    aggs: { by_rate: { terms: { field: 'interest_rate', size: RATE_BUCKETS, shard_size: RATE_BUCKETS, order: { _key: 'asc' } } } },
  };
  return [months, late, rates];
}

/** The day of the first sale in scope, whatever the day asked about. */
export function buildFirstSale(p: RedemptionScope): Clause {
  return {
    size: 0,
    track_total_hits: false,
    query: cohortQuery(p),
    aggs: { first_sale: { min: { field: 'sale_date', format: 'yyyy-MM-dd' } } },
  };
}
