import { mapCertificate } from '../../../domain/certificate-row.ts';
import { certificateTimeline } from '../../../domain/certificate-timeline.ts';
import { type RedemptionQuote, redemptionQuote, toCents } from '../../../domain/redemption-quote.ts';
import type { CertificateDocument } from '../certificates/row.ts';
import { mapQuote } from '../certificate-quotes/map-row.ts';
import type { DeadlineKind, NextDeadline, PositionRow } from './position-row.ts';

/**
 * One position's answer on a day, pure: the certificate as /certificates/{id} renders it, the
 * quote as /certificates/{id}/redemption computes and maps it, the timeline's next deadline, and
 * the position's own yield. The rules are the certificate routes' own functions, so a portfolio
 * can never quote a certificate differently from the certificate's route.
 */

/** What a position says of itself: the stored position, or a certificate of a followed holder group. */
export interface PositionFacts {
  id: string;
  origin: 'added' | 'holder_group';
  certificate_id: string;
  county_slug: string;
  certificate_number: string;
  tax_year: number;
  acquired_on: string | null;
  /** null: the face amount. */
  acquired_amount_cents: number | null;
  note: string | null;
}

const DEADLINE_KIND: Record<'deed_application_earliest' | 'expires', DeadlineKind> = {
  deed_application_earliest: 'deed_application_opens',
  expires: 'expires',
};

const dollars = (cents: number) => cents / 100;

/** Half-up division of non-negative integers, exact at any size. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/**
 * Annualized yield in percent, half up to 4 decimals: interest / acquired / (months / 12) x 100,
 * in integers (interest x 1,200 x 10,000 / (acquired x months), then / 10,000). null when nothing
 * was paid or no interest month has passed (no period to annualize over).
 */
export function annualizedYield(interestCents: number, acquiredCents: number, interestMonths: number): number | null {
  if (acquiredCents <= 0 || interestMonths <= 0) return null;
  const tenThousandths = divideHalfUp(BigInt(interestCents) * 12_000_000n, BigInt(acquiredCents) * BigInt(interestMonths));
  return Number(tenThousandths) / 10_000;
}

/** The quote on a day, or null when the day is before the sale (nothing to redeem yet). */
function quoteOn(doc: CertificateDocument, day: string): RedemptionQuote | null {
  return day < doc.sale_date ? null : redemptionQuote(doc, day);
}

export function positionAnswer(p: PositionFacts, doc: CertificateDocument | null, asOf: string, parcelBaseUrl: string): PositionRow {
  const head = {
    id: p.id,
    origin: p.origin,
    certificate_id: p.certificate_id,
    county_slug: p.county_slug,
    certificate_number: p.certificate_number,
    tax_year: p.tax_year,
  };
  const own = { acquired_on: p.acquired_on, note: p.note };
  if (doc === null)
    return {
      ...head,
      status: 'unresolved',
      certificate: null,
      quote: null,
      next_deadline: null,
      ...own,
      acquired_amount: p.acquired_amount_cents === null ? null : dollars(p.acquired_amount_cents),
      redeemed_on: null,
      interest_earned: null,
      annualized_yield: null,
    };
  const quote = quoteOn(doc, asOf);
  const timeline = certificateTimeline(doc, asOf).next_deadline;
  const next: NextDeadline =
    timeline === null ? null : { kind: DEADLINE_KIND[timeline.name], date: timeline.date, days_left: timeline.days_left };
  const acquiredCents = p.acquired_amount_cents ?? toCents(doc.face_amount);
  // Redeemed on or before as_of: the interest is what the quote paid on the redemption day
  // (its redemption_amount, by the same rule); otherwise the interest due on as_of.
  const redeemedOn = doc.redeemed_date !== null && doc.redeemed_date <= asOf ? doc.redeemed_date : null;
  const realised = redeemedOn === null ? null : quoteOn(doc, redeemedOn);
  const basis = redeemedOn === null ? quote : realised;
  const interestEarned = realised?.redeemable ? realised.interest_due_cents : null;
  return {
    ...head,
    status: doc.status,
    certificate: mapCertificate(doc, parcelBaseUrl),
    quote: quote === null ? null : mapQuote(doc, asOf, quote),
    next_deadline: next,
    ...own,
    acquired_amount: dollars(acquiredCents),
    redeemed_on: redeemedOn,
    interest_earned: interestEarned === null ? null : dollars(interestEarned),
    annualized_yield: basis?.redeemable ? annualizedYield(basis.interest_due_cents, acquiredCents, basis.interest_months) : null,
  };
}
