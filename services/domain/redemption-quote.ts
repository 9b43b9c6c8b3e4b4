import { addYearsIso, isCalendarDate } from './calendar-days.ts';

/**
 * What a certificate pays off on a given day: the one rule the
 * generator computes redemption_amount with, the record validation checks it
 * with and the API quotes with, so a redeemed certificate's redemption_amount is
 * always its quote's holder_amount on its redeemed_date.
 *
 *  - Simple interest on the face at the bid rate, by calendar month: a month's
 *    interest attaches on its first day (s. 197.172(4)), so a redemption on any
 *    day of a month pays that whole month.
 *  - The first interest month is June of the sale year (s. 197.402(3)); a sale
 *    before June 1 falls in the 60 days after delinquency, when neither interest
 *    nor the minimum may be charged (s. 197.172(2)). Months are counted from that
 *    June through the month of the day quoted, inclusive.
 *  - Interest due is the greater of the accrued interest and the 5% mandatory
 *    minimum, except on a 0% bid, which earns nothing (s. 197.472(2)).
 *  - The tax collector's $6.25 is paid by the owner on top and is not the
 *    holder's (s. 197.472(3), (5)).
 *  - Not redeemable: a cancelled certificate, a redeemed one after its
 *    redeemed_date, one on or past its expiry (the sale date + 7 years with no
 *    deed application on record, s. 197.482; on the expiry day itself the
 *    collector cancels it, as the generator models).
 * Money is integer cents; each component is rounded half up to the cent before
 * comparing and adding (chapter-197.md s. 1.4), never in floating point.
 */

export const REDEMPTION_FEE_CENTS = 625;
export const MINIMUM_INTEREST_PERCENT = 5;
export const EXPIRY_YEARS = 7;

export const QUOTE_RULES = ['accrued', 'minimum_5_percent', 'zero_bid', 'no_interest_yet'] as const;
export type QuoteRule = (typeof QUOTE_RULES)[number];
export const NOT_REDEEMABLE_REASONS = ['redeemed', 'cancelled', 'expired'] as const;
export type NotRedeemableReason = (typeof NOT_REDEEMABLE_REASONS)[number];

/** The fields of a certificate record the quote reads. */
export interface QuoteFacts {
  status: string;
  sale_date: string;
  face_amount: number;
  interest_rate: number;
  redeemed_date: string | null;
  tax_deed_application_date: string | null;
}

export interface QuoteAmounts {
  first_interest_month: string;
  interest_months: number;
  accrued_interest_cents: number;
  minimum_interest_cents: number;
  interest_due_cents: number;
  rule: QuoteRule;
  holder_amount_cents: number;
  redemption_fee_cents: number;
  total_due_cents: number;
}

export type RedemptionQuote =
  | ({ redeemable: true; reason: null; deed_application_pending: boolean; statute: string[] } & QuoteAmounts)
  | { redeemable: false; reason: NotRedeemableReason; deed_application_pending: boolean; statute: string[] };

/** Half-up division of non-negative integers, exact at any size. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Dollars with at most two decimals -> cents; anything else is a caller's bug. */
export function toCents(dollars: number): number {
  const cents = Math.round(dollars * 100);
  if (!Number.isFinite(dollars) || dollars < 0 || Math.abs(cents - dollars * 100) > 1e-6)
    throw new RangeError(`not a non-negative amount in whole cents: ${dollars}`);
  return cents;
}

/** Rates are percent with at most 4 decimals (bids go by 0.25; 4 leaves room). */
function rateTenThousandths(rate: number): bigint {
  if (!(rate >= 0 && rate <= 18)) throw new RangeError(`interest rate must be 0..18 percent: ${rate}`);
  return BigInt(Math.round(rate * 10_000));
}

/** Calendar months from June of the sale year through the month of `asOf`, inclusive; 0 before June. */
export function interestMonths(saleDate: string, asOf: string): number {
  const saleYear = Number(saleDate.slice(0, 4));
  const months = (Number(asOf.slice(0, 4)) - saleYear) * 12 + (Number(asOf.slice(5, 7)) - 6) + 1;
  return Math.max(0, months);
}

/** The sale date + 7 years (s. 197.482). */
export function expiryDate(saleDate: string): string {
  return addYearsIso(saleDate, EXPIRY_YEARS);
}

/** The amounts for a certificate held through the month of `asOf` (no status rules). */
export function quoteAmounts(faceAmount: number, interestRate: number, saleDate: string, asOf: string): QuoteAmounts {
  const face = BigInt(toCents(faceAmount));
  const rate = rateTenThousandths(interestRate);
  const months = interestMonths(saleDate, asOf);
  // face x rate/100 x months/12, the rate in ten-thousandths of a percent.
  const accrued = divideHalfUp(face * rate * BigInt(months), 12_000_000n);
  const minimum = rate > 0n && months >= 1 ? divideHalfUp(face * BigInt(MINIMUM_INTEREST_PERCENT), 100n) : 0n;
  const rule: QuoteRule = rate === 0n ? 'zero_bid' : months === 0 ? 'no_interest_yet' : accrued > minimum ? 'accrued' : 'minimum_5_percent';
  const due = rule === 'accrued' ? accrued : rule === 'minimum_5_percent' ? minimum : 0n;
  const holder = face + due;
  return {
    first_interest_month: `${saleDate.slice(0, 4)}-06`,
    interest_months: months,
    accrued_interest_cents: Number(accrued),
    minimum_interest_cents: Number(minimum),
    interest_due_cents: Number(due),
    rule,
    holder_amount_cents: Number(holder),
    redemption_fee_cents: REDEMPTION_FEE_CENTS,
    total_due_cents: Number(holder) + REDEMPTION_FEE_CENTS,
  };
}

/** A deed application dated on or before `asOf` is on record that day. */
export function applicationOnRecord(c: Pick<QuoteFacts, 'tax_deed_application_date'>, asOf: string): boolean {
  return c.tax_deed_application_date !== null && c.tax_deed_application_date <= asOf;
}

function notRedeemableReason(c: QuoteFacts, asOf: string): NotRedeemableReason | null {
  if (c.status === 'cancelled') return 'cancelled';
  if (c.redeemed_date !== null && asOf > c.redeemed_date) return 'redeemed';
  if (!applicationOnRecord(c, asOf) && asOf >= expiryDate(c.sale_date)) return 'expired';
  return null;
}

/**
 * The quote on `asOf` (YYYY-MM-DD, on or after the sale date: the caller answers
 * a 400 before asking for an earlier day). On or before a redeemed certificate's
 * redeemed_date it answers as if unredeemed, so the quote on that day is what
 * was paid.
 */
export function redemptionQuote(c: QuoteFacts, asOf: string): RedemptionQuote {
  if (!isCalendarDate(asOf) || asOf < c.sale_date)
    throw new RangeError(`quote date ${asOf} is not a date on or after the sale ${c.sale_date}`);
  const pending = applicationOnRecord(c, asOf) && c.status !== 'cancelled' && !(c.redeemed_date !== null && asOf > c.redeemed_date);
  const reason = notRedeemableReason(c, asOf);
  if (reason !== null)
    return { redeemable: false, reason, deed_application_pending: pending, statute: [reason === 'expired' ? 's. 197.482' : 's. 197.472'] };
  const amounts = quoteAmounts(c.face_amount, c.interest_rate, c.sale_date, asOf);
  const statute = ['s. 197.172', 's. 197.402(3)', 's. 197.472', ...(pending ? ['s. 197.542'] : [])];
  return { redeemable: true, reason: null, deed_application_pending: pending, statute, ...amounts };
}
