import { copyCertificateKeys, copyParcelFields } from '../../../domain/certificate-row.ts';
import type { LandsAvailableRecord } from '../../../domain/records.ts';
import { LANDS_COLUMNS, type LandsRow } from './row.ts';

export type LandsDocument = Omit<
  LandsAvailableRecord,
  'certificate_number_normalized' | 'parcel_id_normalized' | 'parcel_url' | 'ingested_at'
>;

/** The stored fields a row needs: all of the row's but parcel_url, which is built at render time, not read. */
export const LANDS_SOURCE = LANDS_COLUMNS.filter((c) => c !== 'parcel_url');

/**
 * The one lands-available mapper: exactly the fields of spec 2.5, in its order. The row
 * opens and closes with the certificate row's fields, copied by the certificate mapper's
 * own helpers (parcel_url built from PARCEL_BASE_URL as configured now).
 */
export function mapLandsRow(doc: LandsDocument, parcelBaseUrl: string): LandsRow {
  return Object.assign(
    copyCertificateKeys(doc),
    {
      status: 'lands_available' as const,
      face_amount: doc.face_amount,
      opening_bid: doc.opening_bid,
      tax_deed_application_date: doc.tax_deed_application_date,
      available_since: doc.available_since,
    },
    copyParcelFields(doc, parcelBaseUrl),
  );
}
