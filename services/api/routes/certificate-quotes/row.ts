import { z } from 'zod';
import { DEADLINE_NAMES } from '../../../domain/certificate-timeline.ts';
import { CERTIFICATE_STATUSES } from '../../../domain/records.ts';
import { NOT_REDEEMABLE_REASONS, QUOTE_RULES } from '../../../domain/redemption-quote.ts';
import { objectResponse } from '../../envelope.ts';

/** The public shapes of the redemption quote, the timeline and the deed estimate. */

const money = (what: string) => z.number().nullable().describe(`${what}, in US dollars; null when not redeemable.`);

export const RedemptionQuoteObject = z.object({
  certificate_id: z.string().describe('The certificate quoted (cert_<id>).'),
  as_of: z.string().describe('The day quoted (YYYY-MM-DD).'),
  status: z.enum(CERTIFICATE_STATUSES).describe("The certificate's status now."),
  redeemable: z.boolean().describe('Whether the certificate can be redeemed on as_of.'),
  reason: z.enum(NOT_REDEEMABLE_REASONS).nullable().describe('Why not redeemable (redeemed, cancelled, expired); null when redeemable.'),
  face_amount: z.number().describe('Face value at sale, in US dollars.'),
  interest_rate: z.number().describe('Winning bid rate, percent a year.'),
  first_interest_month: z.string().describe('June of the sale year (YYYY-MM): the first month that earns interest (s. 197.402(3)).'),
  interest_months: z
    .number()
    .int()
    .nullable()
    .describe('Calendar months from first_interest_month through the month of as_of, inclusive; 0 before it.'),
  accrued_interest: money('Face x rate / 100 x months / 12, half up to the cent'),
  minimum_interest: money('The 5% mandatory minimum (s. 197.472(2)); 0 on a 0% bid or before June of the sale year'),
  interest_due: money('The greater of accrued_interest and minimum_interest (0 on a 0% bid and before June of the sale year)'),
  rule: z
    .enum(QUOTE_RULES)
    .nullable()
    .describe('Which rule set interest_due: accrued, minimum_5_percent, zero_bid, no_interest_yet; null when not redeemable.'),
  holder_amount: money('Face + interest_due: what the holder receives'),
  redemption_fee: money("The tax collector's fee, 6.25 (s. 197.472(3))"),
  total_due: money('holder_amount + redemption_fee: what the owner pays'),
  deed_application_pending: z
    .boolean()
    .describe(
      'A tax deed application is on record: the clerk adds costs and 1.5% a month from the month after the application (s. 197.542), not included here.',
    ),
  statute: z.array(z.string()).describe('The sections of Florida Statutes chapter 197 applied.'),
});
export type RedemptionQuoteObject = z.infer<typeof RedemptionQuoteObject>;

export const TimelineObject = z.object({
  certificate_id: z.string().describe('The certificate (cert_<id>).'),
  as_of: z.string().describe('The day the deadline is counted from (YYYY-MM-DD).'),
  status: z.enum(CERTIFICATE_STATUSES).describe("The certificate's status now."),
  dates: z
    .object({
      sale: z.string().describe('Sale (issue) date.'),
      interest_starts: z.string().describe('June 1 of the sale year (s. 197.402(3)).'),
      deed_application_earliest: z
        .string()
        .describe('April 1 of the sale year + 2: the first day a tax deed application may be made (s. 197.502(1)).'),
      expires: z
        .string()
        .nullable()
        .describe(
          'The sale date + 7 years, when an unapplied certificate is void (s. 197.482); null once a deed application is on record.',
        ),
      tax_deed_application: z.string().nullable().describe('Tax deed application date, if any.'),
      redeemed: z.string().nullable().describe('Redemption date, if any.'),
    })
    .describe("The certificate's statutory dates."),
  next_deadline: z
    .object({
      name: z.enum(DEADLINE_NAMES).describe('deed_application_earliest or expires.'),
      date: z.string().describe('The deadline (YYYY-MM-DD).'),
      days_left: z.number().int().describe('Days from as_of to the deadline (0 on the day).'),
    })
    .nullable()
    .describe('For a certificate still outstanding (sold or tax_deed_applied): the earliest deadline on or after as_of; else null.'),
});
export type TimelineObject = z.infer<typeof TimelineObject>;

export const OtherCertificate = z.object({
  id: z.string().describe('Certificate id (cert_<id>).'),
  certificate_number: z.string().describe('Certificate number.'),
  tax_year: z.number().int().describe('Tax year.'),
  status: z.enum(CERTIFICATE_STATUSES).describe('Status now.'),
  holder_name: z.string().describe('Holder of record.'),
  holder_amount: z
    .number()
    .nullable()
    .describe("Its redemption quote's holder_amount on as_of, in US dollars; null when it is not redeemable then (expired)."),
});

export const DeedEstimateObject = z.object({
  certificate_id: z.string().describe('The certificate whose holder would apply (cert_<id>).'),
  as_of: z.string().describe('The day estimated (YYYY-MM-DD).'),
  status: z.enum(CERTIFICATE_STATUSES).describe("The certificate's status now."),
  eligible: z
    .boolean()
    .describe(
      'Whether its holder may apply on as_of: redeemable that day, no deed application on record yet, and on or after eligible_from.',
    ),
  eligible_from: z.string().describe('April 1 of the sale year + 2 (s. 197.502(1)).'),
  other_certificates: z
    .array(OtherCertificate)
    .describe(
      'Every other certificate on the same county and parcel, sold by as_of and neither redeemed nor cancelled, oldest tax year first: the applicant redeems them (s. 197.502(2)).',
    ),
  other_certificates_total: z.number().describe('Sum of their holder_amount, in US dollars.'),
  application_fee: z.number().describe("The tax collector's application fee, 75.00 (s. 197.502(1))."),
  known_total: z.number().describe('other_certificates_total + application_fee: what the data can price.'),
  not_included: z.array(z.string()).describe('What the applicant also pays that the data cannot know.'),
});
export type DeedEstimateObject = z.infer<typeof DeedEstimateObject>;

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const RedemptionQuoteResponse = objectResponse(RedemptionQuoteObject);
export const TimelineResponse = objectResponse(TimelineObject);
export const DeedEstimateResponse = objectResponse(DeedEstimateObject);
