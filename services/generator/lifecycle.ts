import type { CertificateStatus } from '../domain/records.ts';
import { addYears, weekday } from './dates.ts';
import type { Prng } from './prng.ts';

/**
 * What became of a certificate after its sale, as of today (Florida Statutes
 * chapter 197):
 *  - most owners redeem within two years (s. 197.472);
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
 */

const CANCELLED_FOR_ERROR = 0.02;
const REDEEMED_EVENTUALLY = { bidder: 0.9, county: 0.7 };
const APPLIED_FOR_DEED = { bidder: 0.7, county: 0.6 };
/** Mean days from the sale to redemption: about 93 percent are redeemed within two years. */
const MEAN_REDEMPTION_DAYS = 300;
const MEAN_APPLICATION_DELAY_DAYS = { bidder: 150, county: 240 };
/** Days from a county's deed application to the clerk's deed sale (notice, advertising): 60 to 119. */
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
}

export interface Outcome {
  status: CertificateStatus;
  /** Day numbers, or -1 when not applicable. */
  redeemedDay: number;
  applicationDay: number;
}

export function afterSale(facts: SaleFacts, rng: Prng): Outcome {
  const who = facts.struck ? 'county' : 'bidder';
  const cancelledForError = rng.chance(CANCELLED_FOR_ERROR);
  const willRedeem = rng.chance(REDEEMED_EVENTUALLY[who]);
  const redeemOn = weekday(facts.saleDay + 10 + Math.floor(rng.exponential(MEAN_REDEMPTION_DAYS)));
  const applies = rng.chance(APPLIED_FOR_DEED[who]);
  const applyOn = weekday(facts.deedEligibleDay + Math.floor(rng.exponential(MEAN_APPLICATION_DELAY_DAYS[who])));
  const listedOn = applyOn + DEED_SALE_DELAY_DAYS.min + rng.int(DEED_SALE_DELAY_DAYS.spread);
  const applied = applies && applyOn < facts.expiryDay;
  const appliedBefore = (day: number) => applied && applyOn < day;

  if (cancelledForError) return { status: 'cancelled', redeemedDay: -1, applicationDay: -1 };
  // Past expiry an unapplied certificate is void: there is nothing left to redeem.
  // After a deed application, redemption is possible only until the deed sale.
  const redeems = willRedeem && (redeemOn < facts.expiryDay || appliedBefore(redeemOn)) && !(applied && redeemOn >= listedOn);
  if (redeems && redeemOn <= facts.todayDay)
    // Owners often redeem after a deed application, before the deed sale.
    return { status: 'redeemed', redeemedDay: redeemOn, applicationDay: appliedBefore(redeemOn) ? applyOn : -1 };
  if (applied && applyOn <= facts.todayDay) {
    if (!facts.struck || facts.todayDay < listedOn) return { status: 'tax_deed_applied', redeemedDay: -1, applicationDay: applyOn };
    // County-held land no one bid on at the deed sale: on the list, until it escheats.
    if (facts.todayDay < addYears(listedOn, ESCHEAT_YEARS)) return { status: 'lands_available', redeemedDay: -1, applicationDay: applyOn };
    return { status: 'cancelled', redeemedDay: -1, applicationDay: applyOn };
  }
  if (facts.todayDay >= facts.expiryDay) return { status: 'cancelled', redeemedDay: -1, applicationDay: -1 };
  return { status: facts.struck ? 'available' : 'sold', redeemedDay: -1, applicationDay: -1 };
}
