import { addYearsIso, daysBetween, previousDay } from './calendar-days.ts';
import { applicationOnRecord, EXPIRY_YEARS, expiryDate } from './redemption-quote.ts';

/**
 * A certificate's statutory dates, pure:
 *  - interest_starts: June 1 of the sale year (s. 197.402(3), s. 197.172(2));
 *  - deed_application_earliest: April 1 of the sale year + 2 (s. 197.502(1));
 *  - expires: the sale date + 7 years (s. 197.482), null once a deed
 *    application is on record (on the day asked about), which stops the term.
 * The next deadline is shown only while the certificate is outstanding (sold or
 * tax_deed_applied): the earliest of the two deadlines on or after that day.
 */

export const OUTSTANDING_STATUSES = ['sold', 'tax_deed_applied'] as const;
export const DEADLINE_NAMES = ['deed_application_earliest', 'expires'] as const;
export type DeadlineName = (typeof DEADLINE_NAMES)[number];

export interface TimelineFacts {
  status: string;
  sale_date: string;
  redeemed_date: string | null;
  tax_deed_application_date: string | null;
}

export interface CertificateTimeline {
  dates: {
    sale: string;
    interest_starts: string;
    deed_application_earliest: string;
    expires: string | null;
    tax_deed_application: string | null;
    redeemed: string | null;
  };
  next_deadline: { name: DeadlineName; date: string; days_left: number } | null;
}

export function interestStarts(saleDate: string): string {
  return `${saleDate.slice(0, 4)}-06-01`;
}

export function deedApplicationEarliest(saleDate: string): string {
  return `${Number(saleDate.slice(0, 4)) + 2}-04-01`;
}

export function certificateTimeline(c: TimelineFacts, asOf: string): CertificateTimeline {
  const dates = {
    sale: c.sale_date,
    interest_starts: interestStarts(c.sale_date),
    deed_application_earliest: deedApplicationEarliest(c.sale_date),
    expires: applicationOnRecord(c, asOf) ? null : expiryDate(c.sale_date),
    tax_deed_application: c.tax_deed_application_date,
    redeemed: c.redeemed_date,
  };
  const outstanding = (OUTSTANDING_STATUSES as readonly string[]).includes(c.status);
  const ahead = (
    [
      ['deed_application_earliest', dates.deed_application_earliest],
      ['expires', dates.expires],
    ] as const
  ).filter((d): d is readonly [DeadlineName, string] => d[1] !== null && d[1] >= asOf);
  const next = outstanding ? ahead.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))[0] : undefined;
  return {
    dates,
    next_deadline: next === undefined ? null : { name: next[0], date: next[1], days_left: daysBetween(asOf, next[1]) },
  };
}

/**
 * The last sale date whose deed application is allowed on or before `by`:
 * April 1 of the sale year + 2 <= by. The search filter deed_eligible_by is
 * sale_date <= this day.
 */
export function lastSaleDateDeedEligibleBy(by: string): string {
  const year = Number(by.slice(0, 4));
  const lastSaleYear = by.slice(5) >= '04-01' ? year - 2 : year - 3;
  return `${lastSaleYear}-12-31`;
}

/**
 * The first sale date that does NOT expire before `before` (the smallest S with
 * S + 7 years >= before). The search filter expires_before is sale_date < this
 * day. Computed by stepping back from `before` - 7 years, because Feb 29 + 7 years
 * is Mar 1, so two sale dates can share an expiry day.
 */
export function firstSaleDateNotExpiredBefore(before: string): string {
  const back = addYearsIso(before, -EXPIRY_YEARS);
  const dayBefore = previousDay(back);
  return expiryDate(dayBefore) >= before ? dayBefore : back;
}
