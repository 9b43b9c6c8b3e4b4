/**
 * The face amount of a certificate, built from its statutory parts (not a
 * flat markup with a redemption fee in it). Rule 12D-13.045(3), F.A.C.,
 * implementing s. 197.432 F.S., lists what the face must include:
 *  - the delinquent taxes;
 *  - interest from the date of delinquency (April 1, s. 197.333) to the sale,
 *    calculated monthly at 18 percent a year, with the 3 percent minimum of
 *    s. 197.172: a sale in the last two weeks of May is two months, 3 percent;
 *  - costs and charges, including the advertising of s. 197.402(1), whose
 *    proportionate cost per parcel is the county's `advertisingFee`;
 *  - the tax collector's commission: 5 percent of the delinquent taxes
 *    (s. 192.091(2)(b); s. 197.332(1) has the collector collect delinquent
 *    taxes, interest and costs by the sale of certificates).
 * The $6.25 of s. 197.4725(3) and the redemption fees are charged when a
 * certificate is bought from the county or redeemed: never part of the face.
 */

/** Interest on delinquent taxes, percent a month (18 a year). */
export const DELINQUENCY_INTEREST_PERCENT_PER_MONTH = 1.5;
/** The minimum interest charge on delinquent taxes (s. 197.172). */
export const MINIMUM_DELINQUENCY_INTEREST_PERCENT = 3;
/** The tax collector's commission on delinquent taxes (s. 192.091(2)(b)). */
export const COLLECTOR_COMMISSION_PERCENT = 5;

export interface FaceParts {
  delinquentCents: number;
  interestCents: number;
  commissionCents: number;
  advertisingCents: number;
  faceCents: number;
}

/**
 * `monthsDelinquent` counts each month or part from April 1 to the sale day
 * (2 for any sale from April 2 through June 1).
 */
export function faceParts(delinquentCents: number, advertisingCents: number, monthsDelinquent: number): FaceParts {
  const percent = Math.max(MINIMUM_DELINQUENCY_INTEREST_PERCENT, monthsDelinquent * DELINQUENCY_INTEREST_PERCENT_PER_MONTH);
  const interestCents = Math.round((delinquentCents * percent) / 100);
  const commissionCents = Math.round((delinquentCents * COLLECTOR_COMMISSION_PERCENT) / 100);
  return {
    delinquentCents,
    interestCents,
    commissionCents,
    advertisingCents,
    faceCents: delinquentCents + interestCents + commissionCents + advertisingCents,
  };
}
