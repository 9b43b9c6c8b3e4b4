import type { CertificateTimeline } from '../../../domain/certificate-timeline.ts';
import type { RedemptionQuote } from '../../../domain/redemption-quote.ts';
import type { CertificateDocument } from '../certificates/row.ts';
import type { DeedEstimateObject, RedemptionQuoteObject, TimelineObject } from './row.ts';

/**
 * Domain answers -> public objects. Pure: cents become dollars here and only
 * here (integer cents / 100 is exact to the cent as a double).
 */

const dollars = (cents: number) => cents / 100;

export function mapQuote(c: CertificateDocument, asOf: string, q: RedemptionQuote): RedemptionQuoteObject {
  const head = {
    certificate_id: c.id,
    as_of: asOf,
    status: c.status,
    redeemable: q.redeemable,
    reason: q.reason,
    face_amount: c.face_amount,
    interest_rate: c.interest_rate,
    first_interest_month: `${c.sale_date.slice(0, 4)}-06`,
  };
  const tail = { deed_application_pending: q.deed_application_pending, statute: q.statute };
  if (!q.redeemable)
    return {
      ...head,
      interest_months: null,
      accrued_interest: null,
      minimum_interest: null,
      interest_due: null,
      rule: null,
      holder_amount: null,
      redemption_fee: null,
      total_due: null,
      ...tail,
    };
  return {
    ...head,
    interest_months: q.interest_months,
    accrued_interest: dollars(q.accrued_interest_cents),
    minimum_interest: dollars(q.minimum_interest_cents),
    interest_due: dollars(q.interest_due_cents),
    rule: q.rule,
    holder_amount: dollars(q.holder_amount_cents),
    redemption_fee: dollars(q.redemption_fee_cents),
    total_due: dollars(q.total_due_cents),
    ...tail,
  };
}

export function mapTimeline(c: CertificateDocument, asOf: string, t: CertificateTimeline): TimelineObject {
  return { certificate_id: c.id, as_of: asOf, status: c.status, dates: t.dates, next_deadline: t.next_deadline };
}

/** The tax collector's fee for a tax deed application (s. 197.502(1)). */
export const APPLICATION_FEE_CENTS = 7500;

/** What the applicant also pays that no certificate record shows (s. 197.502(2), (6); s. 197.542). */
export const NOT_INCLUDED = [
  'taxes on the parcel not sold as certificates (current and delinquent taxes paid by the applicant, s. 197.502(2))',
  'omitted taxes (s. 197.502(2))',
  "the clerk's fees, the title search and other costs of the sale (s. 197.502(1), s. 197.542)",
  'one-half of the assessed value on homestead property (s. 197.502(6))',
  'interest accruing after as_of',
];

export interface OtherQuote {
  doc: CertificateDocument;
  /** null when that certificate is not redeemable on as_of. */
  holder_amount_cents: number | null;
}

export function mapDeedEstimate(
  c: CertificateDocument,
  asOf: string,
  facts: { eligible: boolean; eligible_from: string },
  others: readonly OtherQuote[],
): DeedEstimateObject {
  const totalCents = others.reduce((sum, o) => sum + (o.holder_amount_cents ?? 0), 0);
  return {
    certificate_id: c.id,
    as_of: asOf,
    status: c.status,
    eligible: facts.eligible,
    eligible_from: facts.eligible_from,
    other_certificates: others.map((o) => ({
      id: o.doc.id,
      certificate_number: o.doc.certificate_number,
      tax_year: o.doc.tax_year,
      status: o.doc.status,
      holder_name: o.doc.holder_name,
      holder_amount: o.holder_amount_cents === null ? null : dollars(o.holder_amount_cents),
    })),
    other_certificates_total: dollars(totalCents),
    application_fee: dollars(APPLICATION_FEE_CENTS),
    known_total: dollars(totalCents + APPLICATION_FEE_CENTS),
    not_included: NOT_INCLUDED,
  };
}
