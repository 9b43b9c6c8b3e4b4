import type { CertificateStatus } from '../domain/records.ts';
import { addYears, dayOf, weekday, yearOf } from './dates.ts';
import type { Prng } from './prng.ts';

/**
 * What became of a certificate after its sale, as of today (Florida Statutes
 * chapter 197):
 *  - most owners redeem within two years (s. 197.472), on the timing below;
 *  - an unredeemed certificate's holder may apply for a tax deed from April 1 of
 *    the sale year + 2 (s. 197.502(1)); the county applies on its own (struck)
 *    certificates (s. 197.502(3)), and when no one bids at the deed sale the
 *    land goes on the list of lands available for taxes (s. 197.502(7));
 *  - land on that list for 3 years unsold escheats to the county (s. 197.502(8)):
 *    the certificate is then `cancelled`;
 *  - a certificate neither redeemed nor applied on within 7 years of its issue is
 *    null and void and the tax collector cancels it (s. 197.482(1)): it is
 *    `cancelled`, and no owner redeems it after that day;
 *  - a few are cancelled as issued in error.
 *
 * When owners pay is an assumption: no Florida redemption curve is published
 * (docs/florida-law.md, "Redemption timing in the demo market", has the targets and
 * the anchors). Each owner pays in one of these ways, shares by count for a 0.25%
 * certificate on improved land:
 *  - within weeks of the sale (the advertisement and the sale notice reach them);
 *  - in the months after, on a decaying schedule (refinancing, a sale of the home);
 *  - with the next November-March tax bill, most in November (the 4% early-payment
 *    discount, lenders paying from escrow) or in March (before April 1 delinquency);
 *  - with the second bill, before the holder may apply for a deed;
 *  - slowly, over years (a slow tail);
 *  - only once a deed application is made, if at all.
 * A certificate bid above 0.25%, on vacant land or a common area, or held by the
 * county is slower: the fast ways lose share to the slow tail and to the last way.
 */

const CANCELLED_FOR_ERROR = 0.02;

/**
 * Assumption: the shares of the ways to pay for a 0% or 0.25% certificate on improved land,
 * fitted to the targets (check:data measures them); the rest, about 42%, is the slow tail.
 */
const PAYS = { weeks: 0.09, months: 0.16, nextBill: 0.22, secondBill: 0.09, onlyUnderDeed: 0.012 } as const;
/** Assumption: the slow tail pays this many days after the sale plus an exponential delay of this mean. */
const SLOW_TAIL = { startDays: 30, meanDays: 440 } as const;
/** Assumption: paying within weeks is 5 days after the sale plus an exponential delay of this mean. */
const WEEKS = { startDays: 5, meanDays: 12 } as const;
/** Assumption: paying in the months after is 15 days after the sale plus an exponential delay of this mean. */
const MONTHS = { startDays: 15, meanDays: 90 } as const;
/** Assumption: a tax-bill season's payments fall 40% in November, 30% December to February, 30% in March. */
const BILL_SEASON = { november: 0.4, winter: 0.3 } as const;

/** Assumption: owners of county-held certificates who pay only under a deed application, if at all (no one presses them). */
const COUNTY_NEVER_PAYS = 0.3;
/**
 * Assumption: how much slower a certificate is than a 0.25% one on improved land. The
 * fast ways (weeks, months, next bill) are divided by it and paying only under a deed
 * application multiplied by it; the slow tail takes up the difference. 18% is 2.8 times
 * slower, low-value land 1.5 times, county-held 4 times.
 */
export function slowness(ratePercent: number, lowValueLand: boolean, countyHeld: boolean): number {
  if (countyHeld) return 4;
  const rate = ratePercent <= 0.25 ? 1 : 1.3 + ratePercent / 12;
  return Math.min(4, rate * (lowValueLand ? 1.5 : 1));
}

/**
 * Assumption: holders who apply for a deed on an unredeemed certificate at all, and how long
 * after April 1 of year 2 they wait on average. Bidders wait long (the certificate keeps
 * earning, an application costs): most of the 10-13% still unredeemed at 24 months redeem
 * before their holder applies, so only 2-5% reach an application.
 */
const APPLIES = { bidder: 0.9, county: 0.6 } as const;
const MEAN_APPLICATION_DELAY_DAYS = { bidder: 1300, county: 240 } as const;
/**
 * Assumption: owners who redeem between a deed application and the deed sale, pressed by it.
 * With those whose own day falls before the sale, about 61% of bidder applications redeem
 * (61% of 208 Florida deed-sale items, Sept 2026); county land is mostly worth little.
 */
const REDEEMS_BEFORE_DEED_SALE = { bidder: 0.55, county: 0.25 } as const;
/** Days from a deed application to the clerk's deed sale (notice, advertising): 60 to 119. */
export const DEED_SALE_DELAY_DAYS = { min: 60, spread: 60 } as const;
/** Years land stays on the lands-available list before it escheats (s. 197.502(8)). */
export const ESCHEAT_YEARS = 3;
/** Years after issue when an unapplied certificate expires (s. 197.482(1)). */
export const EXPIRY_YEARS = 7;

export interface SaleFacts {
  saleDay: number;
  /** April 1 of the sale year + 2: the first day a tax deed application may be made. */
  deedEligibleDay: number;
  /** The sale day 7 years on. */
  expiryDay: number;
  todayDay: number;
  struck: boolean;
  /** The winning rate in percent (18 for a struck certificate). */
  rate: number;
  /** Vacant land or a common area: the owner has less to lose. */
  lowValueLand: boolean;
}

export interface Outcome {
  status: CertificateStatus;
  /** Day numbers, or -1 when not applicable. */
  redeemedDay: number;
  applicationDay: number;
}

/** A day of the November-March bill season that starts in `year`. */
function billDay(year: number, rng: Prng): number {
  const u = rng.next();
  const within = rng.next();
  const [from, to] =
    u < BILL_SEASON.november
      ? [dayOf(year, 11, 1), dayOf(year, 12, 1)]
      : u < BILL_SEASON.november + BILL_SEASON.winter
        ? [dayOf(year, 12, 1), dayOf(year + 1, 3, 1)]
        : [dayOf(year + 1, 3, 1), dayOf(year + 1, 4, 1)];
  return from + Math.floor(within * (to - from));
}

/**
 * The day the owner would pay of their own accord, or Infinity for one who pays only
 * under a deed application (or never). Every branch draws the same numbers, so one
 * certificate's outcome does not shift the next one's.
 */
function ownDay(facts: SaleFacts, rng: Prng): number {
  const s = slowness(facts.rate, facts.lowValueLand, facts.struck);
  const u = rng.next();
  const a = rng.next();
  const saleYear = yearOf(facts.saleDay);
  const nextBillOn = billDay(saleYear, rng);
  const secondBillOn = billDay(saleYear + 1, rng);
  const after = (way: { startDays: number; meanDays: number }) =>
    facts.saleDay + way.startDays + Math.floor(-Math.log(1 - a) * way.meanDays);
  // The ways' shares laid end to end on [0, 1): u falls in one of them.
  const underDeed = facts.struck ? COUNTY_NEVER_PAYS : Math.min(0.3, PAYS.onlyUnderDeed * s);
  const weeks = underDeed + PAYS.weeks / s;
  const months = weeks + PAYS.months / s;
  const nextBill = months + PAYS.nextBill / s;
  const secondBill = nextBill + PAYS.secondBill;
  if (u < underDeed) return Number.POSITIVE_INFINITY;
  if (u < weeks) return after(WEEKS);
  if (u < months) return after(MONTHS);
  if (u < nextBill) return nextBillOn;
  if (u < secondBill) return secondBillOn;
  return after(SLOW_TAIL);
}

export function afterSale(facts: SaleFacts, rng: Prng): Outcome {
  const who = facts.struck ? 'county' : 'bidder';
  const cancelledForError = rng.chance(CANCELLED_FOR_ERROR);
  const own = ownDay(facts, rng);
  const redeemOn = Number.isFinite(own) ? weekday(own) : own;
  const applies = rng.chance(APPLIES[who]);
  const applyOn = weekday(facts.deedEligibleDay + Math.floor(rng.exponential(MEAN_APPLICATION_DELAY_DAYS[who])));
  const listedOn = applyOn + DEED_SALE_DELAY_DAYS.min + rng.int(DEED_SALE_DELAY_DAYS.spread);
  const redeemsUnderDeed = rng.chance(REDEEMS_BEFORE_DEED_SALE[who]);
  // Some days after the notice of application reaches the owner, before the deed sale (at least 60 days on).
  const underDeedOn = weekday(applyOn + 7 + rng.int(DEED_SALE_DELAY_DAYS.min - 10));
  // A holder applies only on a certificate still unredeemed that day.
  const applied = applies && applyOn < facts.expiryDay && applyOn < redeemOn;

  if (cancelledForError) return { status: 'cancelled', redeemedDay: -1, applicationDay: -1 };
  // Past expiry an unapplied certificate is void: there is nothing left to redeem.
  // After a deed application, redemption is possible only until the deed sale.
  let redeemedOn = -1;
  if (!applied) redeemedOn = redeemOn < facts.expiryDay ? redeemOn : -1;
  else if (redeemOn < listedOn) redeemedOn = redeemOn;
  else if (redeemsUnderDeed) redeemedOn = underDeedOn;
  if (redeemedOn >= 0 && redeemedOn <= facts.todayDay)
    return { status: 'redeemed', redeemedDay: redeemedOn, applicationDay: applied ? applyOn : -1 };
  if (applied && applyOn <= facts.todayDay) {
    if (!facts.struck || facts.todayDay < listedOn) return { status: 'tax_deed_applied', redeemedDay: -1, applicationDay: applyOn };
    // County-held land no one bid on at the deed sale: on the list, until it escheats.
    if (facts.todayDay < addYears(listedOn, ESCHEAT_YEARS)) return { status: 'lands_available', redeemedDay: -1, applicationDay: applyOn };
    return { status: 'cancelled', redeemedDay: -1, applicationDay: applyOn };
  }
  if (facts.todayDay >= facts.expiryDay) return { status: 'cancelled', redeemedDay: -1, applicationDay: -1 };
  return { status: facts.struck ? 'available' : 'sold', redeemedDay: -1, applicationDay: -1 };
}
