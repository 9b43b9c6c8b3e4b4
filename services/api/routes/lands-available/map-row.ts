import { parcelUrl } from '../../../domain/county-facts.ts';
import type { LandsAvailableRecord } from '../../../domain/records.ts';
import { LANDS_COLUMNS, type LandsRow } from './row.ts';

export type LandsDocument = Omit<
  LandsAvailableRecord,
  'certificate_number_normalized' | 'parcel_id_normalized' | 'parcel_url' | 'ingested_at'
>;

/** The stored fields a row needs: all of the row's but parcel_url, which is built at render time, not read. */
export const LANDS_SOURCE = LANDS_COLUMNS.filter((c) => c !== 'parcel_url');

/**
 * The one lands-available mapper: exactly the fields of spec 2.5. parcel_url is
 * built from PARCEL_BASE_URL as configured now, so a changed base URL needs no re-ingest.
 */
export function mapLandsRow(doc: LandsDocument, parcelBaseUrl: string): LandsRow {
  return {
    id: doc.id,
    certificate_number: doc.certificate_number,
    county_slug: doc.county_slug,
    county_name: doc.county_name,
    parcel_id: doc.parcel_id,
    tax_year: doc.tax_year,
    status: 'lands_available',
    face_amount: doc.face_amount,
    opening_bid: doc.opening_bid,
    tax_deed_application_date: doc.tax_deed_application_date,
    available_since: doc.available_since,
    owner_name: doc.owner_name,
    site_address_full: doc.site_address_full,
    parcel_url: parcelUrl(parcelBaseUrl, doc.county_slug, doc.parcel_id),
  };
}
