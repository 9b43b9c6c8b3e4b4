import { parcelUrl } from '../../../domain/county-facts.ts';
import type { CertificateDocument, CertificateRow } from './row.ts';

/**
 * The one certificate mapper: a stored document -> the public row of spec 2.2.
 * Fields are copied one by one in the row's order, so nothing else a document
 * carries (normalized keys, legal description, batch number, ingest time) can leak.
 */
export function mapCertificate(doc: CertificateDocument, parcelBaseUrl: string): CertificateRow {
  return {
    id: doc.id,
    certificate_number: doc.certificate_number,
    county_slug: doc.county_slug,
    county_name: doc.county_name,
    parcel_id: doc.parcel_id,
    tax_year: doc.tax_year,
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
    owner_name: doc.owner_name,
    site_address_full: doc.site_address_full,
    parcel_url: parcelUrl(parcelBaseUrl, doc.county_slug, doc.parcel_id),
  };
}
