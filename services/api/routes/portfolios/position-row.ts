import { z } from 'zod';
import { CertificateRow } from '../../../domain/certificate-row.ts';
import { CERTIFICATE_STATUSES } from '../../../domain/records.ts';
import { listResponse } from '../../envelope.ts';
import { RedemptionQuoteObject } from '../certificate-quotes/row.ts';

/** The public shape of one portfolio position as of a day (docs/portfolios-reading.md). */

export const DEADLINE_KINDS = ['deed_application_opens', 'expires'] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

export const POSITION_STATUSES = [...CERTIFICATE_STATUSES, 'unresolved'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

export const POSITION_ORIGINS = ['added', 'holder_group'] as const;

export const NextDeadline = z
  .object({
    kind: z.enum(DEADLINE_KINDS).describe('deed_application_opens (April 1 of the sale year + 2) or expires (the sale date + 7 years).'),
    date: z.string().describe('The deadline (YYYY-MM-DD).'),
    days_left: z.number().int().describe('Days from as_of to the deadline (0 on the day).'),
  })
  .nullable()
  .describe(
    "The certificate timeline's next deadline on or after as_of (GET /certificates/{id}/timeline); null when none is ahead (redeemed, cancelled, expired) or the certificate is unresolved.",
  );
export type NextDeadline = z.infer<typeof NextDeadline>;

export const PositionRow = z.object({
  id: z.string().describe('Position id (pos_<id>); for a followed holder group, derived from the portfolio and certificate ids.'),
  origin: z
    .enum(POSITION_ORIGINS)
    .describe('added: a position written to the portfolio; holder_group: a certificate of the followed holder group.'),
  certificate_id: z.string().describe('The certificate (cert_<id>), derived from county, tax year and certificate number.'),
  county_slug: z.string().describe('County slug of the certificate.'),
  certificate_number: z.string().describe('Certificate number as the position gives it.'),
  tax_year: z.number().int().describe('Tax year of the certificate.'),
  status: z.enum(POSITION_STATUSES).describe("The certificate's status now, or unresolved while the certificate is not in the data."),
  certificate: CertificateRow.nullable().describe('The certificate exactly as GET /certificates/{id} answers it; null while unresolved.'),
  quote: RedemptionQuoteObject.nullable().describe(
    'The redemption quote on as_of, exactly as GET /certificates/{id}/redemption?date=as_of answers it; null while unresolved or when as_of is before the sale.',
  ),
  next_deadline: NextDeadline,
  acquired_on: z.string().nullable().describe('When the position was acquired (YYYY-MM-DD), as written; null if not given.'),
  acquired_amount: z
    .number()
    .nullable()
    .describe('What was paid, in US dollars; the face amount when not given; null when not given and the certificate is unresolved.'),
  note: z.string().nullable().describe('The note written with the position.'),
  redeemed_on: z.string().nullable().describe('The redemption date when the certificate was redeemed on or before as_of; else null.'),
  interest_earned: z
    .number()
    .nullable()
    .describe("Interest received at redemption (the quote's interest_due on redeemed_on), in US dollars; null unless redeemed_on is set."),
  annualized_yield: z
    .number()
    .nullable()
    .describe(
      'Percent a year: interest (earned if redeemed, else due on as_of) / acquired_amount / (interest months / 12), half up to 4 decimals; null with no interest months, no acquired amount, or no quote.',
    ),
});
export type PositionRow = z.infer<typeof PositionRow>;

export const PositionList = listResponse(PositionRow);

/** The CSV columns: one plain value a cell, the certificate and quote flattened to what a spreadsheet sums. */
export const POSITION_CSV_COLUMNS = [
  'id',
  'origin',
  'certificate_id',
  'county_slug',
  'certificate_number',
  'tax_year',
  'status',
  'face_amount',
  'interest_rate',
  'sale_date',
  'holder_name',
  'redeemable',
  'interest_months',
  'interest_due',
  'holder_amount',
  'total_due',
  'next_deadline_kind',
  'next_deadline_date',
  'next_deadline_days_left',
  'acquired_on',
  'acquired_amount',
  'redeemed_on',
  'interest_earned',
  'annualized_yield',
  'note',
] as const;

export function flattenPosition(p: PositionRow): Record<(typeof POSITION_CSV_COLUMNS)[number], unknown> {
  return {
    id: p.id,
    origin: p.origin,
    certificate_id: p.certificate_id,
    county_slug: p.county_slug,
    certificate_number: p.certificate_number,
    tax_year: p.tax_year,
    status: p.status,
    face_amount: p.certificate?.face_amount ?? null,
    interest_rate: p.certificate?.interest_rate ?? null,
    sale_date: p.certificate?.sale_date ?? null,
    holder_name: p.certificate?.holder_name ?? null,
    redeemable: p.quote?.redeemable ?? null,
    interest_months: p.quote?.interest_months ?? null,
    interest_due: p.quote?.interest_due ?? null,
    holder_amount: p.quote?.holder_amount ?? null,
    total_due: p.quote?.total_due ?? null,
    next_deadline_kind: p.next_deadline?.kind ?? null,
    next_deadline_date: p.next_deadline?.date ?? null,
    next_deadline_days_left: p.next_deadline?.days_left ?? null,
    acquired_on: p.acquired_on,
    acquired_amount: p.acquired_amount,
    redeemed_on: p.redeemed_on,
    interest_earned: p.interest_earned,
    annualized_yield: p.annualized_yield,
    note: p.note,
  };
}
