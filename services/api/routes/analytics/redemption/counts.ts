import { interestMonths } from '../../../../domain/redemption-quote.ts';
import { exactBuckets, InexactAggregationError } from '../../../query/exact-terms.ts';
import { MAX_MONTHS } from './params.ts';

/**
 * The engine's answers to buildRedemptionCounts -> the cohort's counts by interest month
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
}

interface HistogramBucket {
  key_as_string: string;
  doc_count: number;
  by_month?: { buckets?: HistogramBucket[] };
}

type Aggregations = Record<string, unknown> | undefined;
type YearAnswer = { by_sale_year?: { buckets?: HistogramBucket[] } };

const monthOf = (saleYear: string, day: string) => Math.min(MAX_MONTHS, interestMonths(`${saleYear}-01-01`, day));

/** `months`, `late` and, for the yield, `rates`: the aggregations of the multi-search, in its order. */
export function mapCohortCounts(answers: { months: Aggregations; late: Aggregations; rates?: Aggregations }, asOf: string): CohortCounts {
  const redeemed = new Array<number>(MAX_MONTHS + 1).fill(0);
  const censored = new Array<number>(MAX_MONTHS + 1).fill(0);
  const late = new Map(((answers.late as YearAnswer)?.by_sale_year?.buckets ?? []).map((b) => [b.key_as_string, b.doc_count]));
  let certificates = 0;
  for (const year of (answers.months as YearAnswer)?.by_sale_year?.buckets ?? []) {
    certificates += year.doc_count;
    let redeemedInYear = 0;
    for (const month of year.by_month?.buckets ?? []) {
      redeemed[monthOf(year.key_as_string, `${month.key_as_string}-01`)]! += month.doc_count;
      redeemedInYear += month.doc_count;
    }
    // Redeemed later in the day's own month: not yet on the day, so censored, at the same month.
    const notYet = late.get(year.key_as_string) ?? 0;
    const dayMonth = monthOf(year.key_as_string, asOf);
    if (notYet > redeemed[dayMonth]!)
      throw new InexactAggregationError(
        'late.by_sale_year',
        `${notYet} late redemptions in ${year.key_as_string} exceed the month's count`,
      );
    redeemed[dayMonth]! -= notYet;
    censored[dayMonth]! += year.doc_count - (redeemedInYear - notYet);
    late.delete(year.key_as_string);
  }
  if (late.size > 0)
    throw new InexactAggregationError('late.by_sale_year', `sale years ${[...late.keys()].join(', ')} are not in the cohort`);
  const rates =
    answers.rates === undefined
      ? []
      : exactBuckets((answers.rates as { by_rate?: unknown }).by_rate, 'by_rate', certificates).map((b) => ({
          rate: Number(b.key),
          certificates: b.doc_count,
        }));
  return { certificates, redeemed, censored, rates };
}

/** The first sale's day from buildFirstSale's answer, or null when the scope holds no certificate. */
export function mapFirstSale(aggregations: Aggregations): string | null {
  const first = (aggregations as { first_sale?: { value?: number | null; value_as_string?: string } })?.first_sale;
  return first?.value == null ? null : (first.value_as_string ?? null);
}
