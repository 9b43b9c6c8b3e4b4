import type { CertificateStatus } from '../../services/domain/records.ts';
import { weekday } from './dates.ts';
import type { Prng } from './prng.ts';

/**
 * What became of a certificate after its sale, as of today. Most owners redeem
 * within two years; an unredeemed certificate's holder may apply for a tax deed
 * from April 1 of the sale year + 2 (county-held ones that fail at the deed sale
 * become lands available); one neither redeemed nor applied for expires 7 years
 * after issue; a few are cancelled as issued in error.
 */

const CANCELLED_FOR_ERROR = 0.02;
const REDEEMED_EVENTUALLY = { bidder: 0.9, county: 0.7 };
const APPLIED_FOR_DEED = { bidder: 0.7, county: 0.6 };
/** Mean days from the sale to redemption: about 93 percent are redeemed within two years. */
const MEAN_REDEMPTION_DAYS = 300;
const MEAN_APPLICATION_DELAY_DAYS = { bidder: 150, county: 240 };

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
  const applied = applies && applyOn < facts.expiryDay;

  if (cancelledForError) return { status: 'cancelled', redeemedDay: -1, applicationDay: -1 };
  if (willRedeem && redeemOn <= facts.todayDay)
    // Owners often redeem after a deed application, before the deed sale.
    return { status: 'redeemed', redeemedDay: redeemOn, applicationDay: applied && applyOn < redeemOn ? applyOn : -1 };
  if (applied && applyOn <= facts.todayDay)
    return { status: facts.struck ? 'lands_available' : 'tax_deed_applied', redeemedDay: -1, applicationDay: applyOn };
  if (facts.todayDay >= facts.expiryDay) return { status: 'cancelled', redeemedDay: -1, applicationDay: -1 };
  return { status: facts.struck ? 'available' : 'sold', redeemedDay: -1, applicationDay: -1 };
}
