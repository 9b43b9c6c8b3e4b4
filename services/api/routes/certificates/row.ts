import { z } from 'zod';
import { CERTIFICATE_STATUSES } from '../../../domain/records.ts';

/**
 * The certificate row of spec 2.2, id through parcel_url, in that order: the one
 * public shape of a certificate (search, by-parcel and /certificates/{id}), the
 * OpenAPI schema, the CSV columns and the source of the field dictionary (2.9).
 */
export const CertificateRow = z.object({
  id: z.string().describe('Platform surrogate key, form cert_<id>.'),
  certificate_number: z.string().describe('Certificate number assigned by the county.'),
  county_slug: z.string().describe('Lowercase county slug, the join key of every county filter.'),
  county_name: z.string().describe('County display name.'),
  parcel_id: z.string().describe('Parcel id assigned by the county, as the county writes it.'),
  tax_year: z.number().int().describe('Tax year the certificate was issued for.'),
  status: z.enum(CERTIFICATE_STATUSES).describe('Certificate status.'),
  face_amount: z.number().describe('Face value at sale, in US dollars.'),
  delinquent_amount: z.number().describe('Underlying delinquent tax amount, in US dollars.'),
  interest_rate: z
    .number()
    .describe('Winning bid rate in percent; bidding starts at 18 and goes down; 0 means a zero-interest bid.'),
  sale_date: z.iso.date().describe('Date sold at the county sale (YYYY-MM-DD).'),
  holder_id: z.string().describe('Id of the holder, form hld_<id>.'),
  holder_name: z.string().describe('Name of the holder.'),
  vendor: z.string().describe('Source the record came from, matched as a string (not a closed set).'),
  redeemed: z.boolean().describe('True when the owner has redeemed the certificate.'),
  redeemed_date: z.iso.date().nullable().describe('Redemption date; null while unredeemed.'),
  redemption_amount: z.number().nullable().describe('Amount paid to redeem, in US dollars; null while unredeemed.'),
  tax_deed_application_date: z.iso
    .date()
    .nullable()
    .describe('Set when a holder has applied for a tax deed; null otherwise.'),
  owner_name: z.string().describe('Record owner of the parcel at the time of the sale.'),
  site_address_full: z.string().describe('Situs address of the parcel.'),
  parcel_url: z.url().describe('Link to the companion parcel service for owner, valuation and geometry detail.'),
});
export type CertificateRow = z.infer<typeof CertificateRow>;

/** The row's field names in order: the CSV header. */
export const CERTIFICATE_COLUMNS = Object.keys(CertificateRow.shape) as (keyof CertificateRow)[];

/**
 * What a search fetches from each stored document: the row's fields except
 * parcel_url, which is built when the row is rendered (from PARCEL_BASE_URL as
 * configured now, not as it was at ingest).
 */
export const CERTIFICATE_SOURCE = CERTIFICATE_COLUMNS.filter((c) => c !== 'parcel_url');

/** The stored fields a row is made of. */
export type CertificateDocument = Omit<CertificateRow, 'parcel_url'>;

/** GET /certificates/counts (spec 4.4, 2.10): the scope echoed, and one bucket per status. */
export const CertificateCountsObject = z.object({
  county: z.string().nullable().describe('The county slug counted, or null for all counties.'),
  tax_year: z.number().int().nullable().describe('The tax year counted, or null for all years.'),
  counts: z
    .array(z.object({ status: z.enum(CERTIFICATE_STATUSES), count: z.number().int() }))
    .describe('All seven statuses, zeros included, by count descending (ties by status name).'),
});

/** GET /certificates/freshness (spec 2.8). */
export const FreshnessObject = z.object({
  certificate_count: z.number().int().describe('Certificates searchable now (the unfiltered search total).'),
  latest_tax_year: z.number().int().nullable().describe('Newest tax year present, or null when there are none.'),
  last_ingested_at: z.string().nullable().describe('When certificates were last ingested (ISO-8601), or null.'),
  last_source_success_at: z.string().nullable().describe('Latest successful check of any feed source (ISO-8601), or null.'),
});
