/**
 * What an owner pays to redeem a Florida tax certificate (s. 197.472 F.S.):
 * the face amount plus interest at the winning bid rate, accruing monthly for
 * each month or part thereof since the sale, and never less than the 5 percent
 * mandatory charge, except on a 0 percent bid, which earns nothing at all.
 * Pure and in integer cents, so it can be reused outside the generator.
 */

/** The mandatory minimum charge, in percent of the face amount. */
export const MINIMUM_CHARGE_PERCENT = 5;

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return MONTH_DAYS[month - 1]!;
}

function parseIsoDate(value: string): [number, number, number] {
  if (!ISO_DATE.test(value)) throw new RangeError(`not a YYYY-MM-DD date: ${value}`);
  const parts: [number, number, number] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))];
  if (parts[2] > daysInMonth(parts[0], parts[1])) throw new RangeError(`not a calendar date: ${value}`);
  return parts;
}

/**
 * Months of interest from the sale date to the redemption date: every month or
 * part thereof, and at least 1 (a same-day redemption still starts a month).
 * Month anniversaries clamp to the month's end: Jan 31 + 1 month is Feb 28/29.
 */
export function interestMonths(saleDate: string, redeemedDate: string): number {
  const [y1, m1, d1] = parseIsoDate(saleDate);
  const [y2, m2, d2] = parseIsoDate(redeemedDate);
  if (redeemedDate < saleDate) throw new RangeError(`redeemed ${redeemedDate} before the sale ${saleDate}`);
  let whole = (y2 - y1) * 12 + (m2 - m1);
  const anniversary = Math.min(d1, daysInMonth(y2, m2));
  if (d2 < anniversary) whole -= 1;
  const months = d2 === anniversary ? whole : whole + 1;
  return Math.max(1, months);
}

/** Half-up division of non-negative integers, exact for any size. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

function toCents(dollars: number, what: string): bigint {
  const cents = Math.round(dollars * 100);
  if (!Number.isFinite(dollars) || dollars < 0 || Math.abs(cents - dollars * 100) > 1e-6)
    throw new RangeError(`${what} must be a non-negative amount in whole cents: ${dollars}`);
  return BigInt(cents);
}

/**
 * Redemption amount in dollars for a certificate of `face` dollars bid at
 * `ratePercent` (0..18, in hundredths of a percent at most) and held `months`
 * months (see interestMonths). Rounded half-up to the cent.
 */
export function redemptionAmount(face: number, ratePercent: number, months: number): number {
  const faceCents = toCents(face, 'face');
  const rateHundredths = Math.round(ratePercent * 100);
  if (!(ratePercent >= 0 && ratePercent <= 18) || Math.abs(rateHundredths - ratePercent * 100) > 1e-6)
    throw new RangeError(`rate must be 0..18 percent in hundredths at most: ${ratePercent}`);
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`months must be a whole number >= 1: ${months}`);
  if (rateHundredths === 0) return Number(faceCents) / 100;
  // face * (rate / 100) * (months / 12), with the rate in hundredths of a percent.
  const accrued = divideHalfUp(faceCents * BigInt(rateHundredths) * BigInt(months), 120_000n);
  const minimum = divideHalfUp(faceCents * BigInt(MINIMUM_CHARGE_PERCENT), 100n);
  // biome-ignore lint/complexity/useMathMinMax: Math.max throws on bigint
  const interest = accrued > minimum ? accrued : minimum;
  return Number(faceCents + interest) / 100;
}

/** redemptionAmount with the months counted between two YYYY-MM-DD dates. */
export function redemptionAmountOn(face: number, ratePercent: number, saleDate: string, redeemedDate: string): number {
  return redemptionAmount(face, ratePercent, interestMonths(saleDate, redeemedDate));
}
