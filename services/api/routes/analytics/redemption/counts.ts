import { interestMonths } from '../../../../domain/redemption-quote.ts';
import { exactBuckets, InexactAggregationError } from '../../../query/exact-terms.ts';
import { MAX_MONTHS } from './params.ts';

/**
 * The engine's answer to buildRedemptionCounts -> the cohort's counts by interest month
 * (pure). Month k counts the certificates whose time is k: a redemption's time is the
 * interest months of its redeemed_date, anyone else's the interest months of the day asked
 * about, both from June of the sale year as the quote counts them and capped at 84.
 */

export interface CohortCounts {
  /** Certificates in the cohort: sold to a bidder on or before the day, not cancelled. */
  certificates: number;
  /** redeemed[k]: redemptions at interest month k, k = 0..84. */
  redeemed: number[];
  /** censored[k]: certificates not redeemed by the day, whose time is month k. */
  censored: number[];
  /** Certificates won at each rate, ascending by rate (only when the rates were asked for). */
  rates: { rate: number; certificates: number }[];
  /** The earliest sale in scope whatever the day, YYYY-MM-DD; null when the scope holds none. */
  firstSale: string | null;
}

interface HistogramBucket {
  key_as_string: string;
  doc_count: number;
  redeemed?: { doc_count: number; by_month?: { buckets?: HistogramBucket[] } };
}

interface CountsAnswer {
  first_sale?: { value?: number | null; value_as_string?: string };
  sold_by_day?: { doc_count: number; by_sale_year?: { buckets?: HistogramBucket[] }; by_rate?: unknown };
}

const monthOf = (saleYear: string, day: string) => Math.min(MAX_MONTHS, interestMonths(`${saleYear}-01-01`, day));

export function mapCohortCounts(aggregations: Record<string, unknown> | undefined, asOf: string): CohortCounts {
  const aggs = (aggregations ?? {}) as CountsAnswer;
  const cohort = aggs.sold_by_day;
  const certificates = cohort?.doc_count ?? 0;
  const redeemed = new Array<number>(MAX_MONTHS + 1).fill(0);
  const censored = new Array<number>(MAX_MONTHS + 1).fill(0);
  let counted = 0;
  for (const year of cohort?.by_sale_year?.buckets ?? []) {
    counted += year.doc_count;
    let redeemedInYear = 0;
    for (const month of year.redeemed?.by_month?.buckets ?? []) {
      redeemed[monthOf(year.key_as_string, `${month.key_as_string}-01`)]! += month.doc_count;
      redeemedInYear += month.doc_count;
    }
    censored[monthOf(year.key_as_string, asOf)]! += year.doc_count - redeemedInYear;
  }
  // A certificate without a sale date would fall out of every month unseen: refuse, never estimate.
  if (counted !== certificates)
    throw new InexactAggregationError('sold_by_day.by_sale_year', `its buckets hold ${counted} of ${certificates} certificates`);
  const rates =
    cohort?.by_rate === undefined
      ? []
      : exactBuckets(cohort.by_rate, 'sold_by_day.by_rate', certificates).map((b) => ({ rate: Number(b.key), certificates: b.doc_count }));
  const first = aggs.first_sale;
  return { certificates, redeemed, censored, rates, firstSale: first?.value == null ? null : (first.value_as_string ?? null) };
}
