import { z } from 'zod';
import { parcelUrl } from './county-facts.ts';
import { CERTIFICATE_STATUSES } from './records.ts';

/**
 * The certificate row of spec 2.2, id through parcel_url, in that order: the one
 * public shape of a certificate (search, by-parcel and /certificates/{id}), the
 * OpenAPI schema, the CSV columns, the source of the field dictionary (2.9), and the
 * object of a certificate's change events. It lives in the domain, not beside the
 * route, because the ingest renders each changed certificate exactly as the API does
 * when it records the change; the route re-exports it.
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
  interest_rate: z.number().describe('Winning bid rate in percent; bidding starts at 18 and goes down; 0 means a zero-interest bid.'),
  sale_date: z.iso.date().describe('Date sold at the county sale (YYYY-MM-DD).'),
  holder_id: z.string().describe('Id of the holder, form hld_<id>.'),
  holder_name: z.string().describe('Name of the holder.'),
  vendor: z.string().describe('Source the record came from, matched as a string (not a closed set).'),
  redeemed: z.boolean().describe('True when the owner has redeemed the certificate.'),
  redeemed_date: z.iso.date().nullable().describe('Redemption date; null while unredeemed.'),
  redemption_amount: z.number().nullable().describe('Amount paid to redeem, in US dollars; null while unredeemed.'),
  tax_deed_application_date: z.iso.date().nullable().describe('Set when a holder has applied for a tax deed; null otherwise.'),
  owner_name: z.string().describe('Record owner of the parcel at the time of the sale.'),
  site_address_full: z.string().describe('Situs address of the parcel.'),
  parcel_url: z.url().describe('Link to the companion parcel service for owner, valuation and geometry detail.'),
});
export type CertificateRow = z.infer<typeof CertificateRow>;

/** The row's field names in order: the CSV header. */
export const CERTIFICATE_COLUMNS = Object.keys(CertificateRow.shape) as (keyof CertificateRow)[];

/**
 * What a read fetches from each stored document: the row's fields except
 * parcel_url, which is built when the row is rendered (from PARCEL_BASE_URL as
 * configured now, not as it was at ingest).
 */
export const CERTIFICATE_SOURCE = CERTIFICATE_COLUMNS.filter((c) => c !== 'parcel_url');

/** The stored fields a row is made of. */
export type CertificateDocument = Omit<CertificateRow, 'parcel_url'>;

/** The fields that say which certificate a row is about, first in every row about one certificate. */
type CertificateKeys = Pick<CertificateRow, 'id' | 'certificate_number' | 'county_slug' | 'county_name' | 'parcel_id' | 'tax_year'>;

/** The parcel's fields that end such a row: its owner, its address and the link to it. */
type ParcelFields = Pick<CertificateRow, 'owner_name' | 'site_address_full' | 'parcel_url'>;

/**
 * The leading fields of the certificate row, copied one by one in its order. The
 * lands-available row (spec 2.5) starts with the same six, so its mapper copies them here too.
 */
export function copyCertificateKeys(doc: CertificateKeys): CertificateKeys {
  return {
    id: doc.id,
    certificate_number: doc.certificate_number,
    county_slug: doc.county_slug,
    county_name: doc.county_name,
    parcel_id: doc.parcel_id,
    tax_year: doc.tax_year,
  };
}

/**
 * The closing fields of the certificate row, shared with the lands-available row; parcel_url
 * is built from PARCEL_BASE_URL as configured now, so a changed base URL needs no re-ingest.
 */
export function copyParcelFields(
  doc: Pick<CertificateRow, 'county_slug' | 'parcel_id' | 'owner_name' | 'site_address_full'>,
  parcelBaseUrl: string,
): ParcelFields {
  return {
    owner_name: doc.owner_name,
    site_address_full: doc.site_address_full,
    parcel_url: parcelUrl(parcelBaseUrl, doc.county_slug, doc.parcel_id),
  };
}

/**
 * The one certificate mapper: a stored document -> the public row of spec 2.2.
 * Fields are copied one by one in the row's order, so nothing else a document
 * carries (normalized keys, legal description, batch number, ingest time) can leak.
 */
export function mapCertificate(doc: CertificateDocument, parcelBaseUrl: string): CertificateRow {
  return Object.assign(
    copyCertificateKeys(doc),
    {
      status: doc.status,
      face_amount: doc.face_amount,
      delinquent_amount: doc.delinquent_amount,
      interest_rate: doc.interest_rate,
      sale_date: doc.sale_date,
      holder_id: doc.holder_id,
      holder_name: doc.holder_name,
      vendor: doc.vendor,
      redeemed: doc.redeemed,
      redeemed_date: doc.redeemed_date ?? null,
      redemption_amount: doc.redemption_amount ?? null,
      tax_deed_application_date: doc.tax_deed_application_date ?? null,
    },
    copyParcelFields(doc, parcelBaseUrl),
  );
}
