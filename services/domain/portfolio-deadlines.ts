import { addYearsIso, daysBetween, isoOf, parseIsoDay } from './calendar-days.ts';
import { applicationOnRecord } from './redemption-quote.ts';
import { certificateTimeline, deedApplicationEarliest, OUTSTANDING_STATUSES, type TimelineFacts } from './certificate-timeline.ts';

/**
 * Which deadline alerts of one certificate are due on a Florida calendar day, pure
 * (docs/portfolios.md, Alerts). Only an outstanding certificate (sold, tax_deed_applied) has any:
 * a redeemed, cancelled or later one has no deadline left to act on.
 *
 *  - deed_application_opens (horizon 0): the first day a tax deed application is allowed
 *    (certificate-timeline.ts), while no application is on record. Due on that day and, so a
 *    worker down for a few days still tells it, up to DEED_OPENS_CATCH_UP_DAYS after.
 *  - expires (horizons 90, 30, 7 days): the expiry day, while no application is on record. An
 *    alert is due once the days left are within its horizon and the day is still ahead (the expiry
 *    day itself counts as expired, florida-law.md). Only the nearest horizon reached is due: a day
 *    that finds 20 days left owes the 30-day alert, not the 90-day one it missed as well.
 *
 * Each alert is recorded once per (position, kind, horizon): the caller's table of sent alerts.
 */

export const EXPIRY_HORIZONS = [7, 30, 90] as const;
export const DEED_OPENS_CATCH_UP_DAYS = 7;

export type DeadlineKind = 'deed_application_opens' | 'expires';

export interface DueAlert {
  kind: DeadlineKind;
  /** Days before the deadline the alert is for; 0 for the opening day. */
  horizon: number;
  date: string;
  /** Days from `today` to date: negative for an opening told late. */
  days_left: number;
}

export function dueDeadlineAlerts(c: TimelineFacts, today: string): DueAlert[] {
  if (!(OUTSTANDING_STATUSES as readonly string[]).includes(c.status)) return [];
  const due: DueAlert[] = [];
  if (!applicationOnRecord(c, today)) {
    const opens = deedApplicationEarliest(c.sale_date);
    const left = daysBetween(today, opens);
    if (left <= 0 && left >= -DEED_OPENS_CATCH_UP_DAYS)
      due.push({ kind: 'deed_application_opens', horizon: 0, date: opens, days_left: left });
  }
  const expires = certificateTimeline(c, today).dates.expires;
  if (expires !== null) {
    const left = daysBetween(today, expires);
    const horizon = EXPIRY_HORIZONS.find((h) => left <= h);
    if (left > 0 && horizon !== undefined) due.push({ kind: 'expires', horizon, date: expires, days_left: left });
  }
  return due;
}

/**
 * The sale dates whose certificates may owe an alert on `today`, as inclusive ranges: those whose
 * deed application opened within the catch-up days (sold in the year two before), and those
 * expiring within the widest horizon. A followed holder group's certificates are read from the
 * engine by these ranges, then judged one by one by dueDeadlineAlerts; a day to spare on each side.
 */
export function alertSaleDateRanges(today: string): { gte: string; lte: string }[] {
  const year = Number(today.slice(0, 4));
  const day = parseIsoDay(today)!;
  const ranges: { gte: string; lte: string }[] = [];
  const sinceOpening = daysBetween(`${year}-04-01`, today);
  if (sinceOpening >= 0 && sinceOpening <= DEED_OPENS_CATCH_UP_DAYS) ranges.push({ gte: `${year - 2}-01-01`, lte: `${year - 2}-12-31` });
  const widest = Math.max(...EXPIRY_HORIZONS);
  ranges.push({ gte: addYearsIso(isoOf(day - 1), -7), lte: addYearsIso(isoOf(day + widest + 1), -7) });
  return ranges;
}
