import type { PositionRecord } from '../../../control/portfolios/index.ts';
import { mapCertificate } from '../../../domain/certificate-row.ts';
import { certificateTimeline } from '../../../domain/certificate-timeline.ts';
import { type RedemptionQuote, redemptionQuote, toCents } from '../../../domain/redemption-quote.ts';
import type { CertificateDocument } from '../certificates/row.ts';
import { mapQuote } from '../certificate-quotes/map-row.ts';
import type { DeadlineKind, NextDeadline, PositionRow, PositionStatus } from './position-row.ts';

/**
 * One position's answer on a day, pure: the certificate as /certificates/{id} renders it, the
 * quote as /certificates/{id}/redemption computes and maps it, the timeline's next deadline, and
 * the position's own yield. The rules are the certificate routes' own functions, so a portfolio
 * can never quote a certificate differently from the certificate's route.
 *
 * In two steps, because a portfolio of 10,000 positions is filtered, ordered and summed on its
 * figures while only a page is rendered: positionFigures needs only the fields the rules read
 * (FIGURE_SOURCE), renderPosition the whole document of a position on the page.
 */

/** What a position says of itself: the stored position, or a certificate of a followed holder group. */
export type PositionFacts = Omit<PositionRecord, 'portfolio_id' | 'created_at'> & { origin: 'added' | 'holder_group' };

/** The stored fields the quote and the timeline read. */
export const FIGURE_SOURCE = [
  'id',
  'status',
  'sale_date',
  'face_amount',
  'interest_rate',
  'redeemed_date',
  'tax_deed_application_date',
] as const satisfies readonly (keyof CertificateDocument)[];
export type FigureDocument = Pick<CertificateDocument, (typeof FIGURE_SOURCE)[number]>;

/** A position's figures on a day: everything its row shows but the certificate and the mapped quote. */
export interface PositionFigures {
  facts: PositionFacts;
  status: PositionStatus;
  /** null while unresolved. */
  doc: FigureDocument | null;
  /** The quote on as_of; null while unresolved or before the sale. */
  quote: RedemptionQuote | null;
  next_deadline: NextDeadline;
  face_cents: number | null;
  acquired_cents: number | null;
  redeemed_on: string | null;
  interest_earned_cents: number | null;
  annualized_yield: number | null;
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
function quoteOn(doc: FigureDocument, day: string): RedemptionQuote | null {
  return day < doc.sale_date ? null : redemptionQuote(doc, day);
}

/** Redeemable on as_of and not redeemed by then: what the holder is still owed (a position's figures or its row). */
export function isOutstanding(f: { quote: { redeemable: boolean } | null; redeemed_on: string | null }): boolean {
  return f.quote?.redeemable === true && f.redeemed_on === null;
}

export function positionFigures(p: PositionFacts, doc: FigureDocument | null, asOf: string): PositionFigures {
  if (doc === null)
    return {
      facts: p,
      status: 'unresolved',
      doc: null,
      quote: null,
      next_deadline: null,
      face_cents: null,
      acquired_cents: p.acquired_amount_cents,
      redeemed_on: null,
      interest_earned_cents: null,
      annualized_yield: null,
    };
  const quote = quoteOn(doc, asOf);
  const timeline = certificateTimeline(doc, asOf).next_deadline;
  const faceCents = toCents(doc.face_amount);
  const acquiredCents = p.acquired_amount_cents ?? faceCents;
  // Redeemed on or before as_of: the interest is what the quote paid on the redemption day
  // (its redemption_amount, by the same rule); otherwise the interest due on as_of.
  const redeemedOn = doc.redeemed_date !== null && doc.redeemed_date <= asOf ? doc.redeemed_date : null;
  const realised = redeemedOn === null ? null : quoteOn(doc, redeemedOn);
  const basis = redeemedOn === null ? quote : realised;
  return {
    facts: p,
    status: doc.status,
    doc,
    quote,
    next_deadline: timeline === null ? null : { kind: DEADLINE_KIND[timeline.name], date: timeline.date, days_left: timeline.days_left },
    face_cents: faceCents,
    acquired_cents: acquiredCents,
    redeemed_on: redeemedOn,
    interest_earned_cents: realised?.redeemable ? realised.interest_due_cents : null,
    annualized_yield: basis?.redeemable ? annualizedYield(basis.interest_due_cents, acquiredCents, basis.interest_months) : null,
  };
}

/**
 * The public row of a position from its figures and its whole certificate document (null while
 * unresolved). The quote is mapped from the whole document, so the row always shows what
 * /certificates/{id}/redemption answers for the certificate the row shows.
 */
export function renderPosition(f: PositionFigures, doc: CertificateDocument | null, asOf: string, parcelBaseUrl: string): PositionRow {
  const p = f.facts;
  return {
    id: p.id,
    origin: p.origin,
    certificate_id: p.certificate_id,
    county_slug: p.county_slug,
    certificate_number: p.certificate_number,
    tax_year: p.tax_year,
    status: f.status,
    certificate: doc === null ? null : mapCertificate(doc, parcelBaseUrl),
    quote: doc === null || f.quote === null ? null : mapQuote(doc, asOf, f.quote),
    next_deadline: f.next_deadline,
    acquired_on: p.acquired_on,
    acquired_amount: f.acquired_cents === null ? null : dollars(f.acquired_cents),
    note: p.note,
    redeemed_on: f.redeemed_on,
    interest_earned: f.interest_earned_cents === null ? null : dollars(f.interest_earned_cents),
    annualized_yield: f.annualized_yield,
  };
}

/** Both steps for one position whose whole document is at hand. */
export function positionAnswer(p: PositionFacts, doc: CertificateDocument | null, asOf: string, parcelBaseUrl: string): PositionRow {
  return renderPosition(positionFigures(p, doc, asOf), doc, asOf, parcelBaseUrl);
}
