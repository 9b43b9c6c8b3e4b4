import { createHash } from 'node:crypto';
import { normalizeKey } from '../../services/domain/ids.ts';
import { CertificateRecord } from '../../services/domain/records.ts';
import { quoteAmounts } from '../../services/domain/redemption-quote.ts';

const hex20 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 20);

/**
 * A valid certificate for engine tests, varied by n; overrides win. Ids and the
 * *_normalized fields follow the overridden values. Parsed with the canonical
 * schema, so a test can never index a record the worker would not. A redeemed
 * certificate given no redemption_amount gets its quote's holder_amount on its
 * redeemed_date, the only amount the schema accepts: one redemption rule for the API's quote,
 * the generator and ingest validation.
 */
export function sampleCertificate(overrides: Partial<CertificateRecord> = {}, n = 0): CertificateRecord {
  const certificate_number = overrides.certificate_number ?? `2023-${String(n).padStart(6, '0')}`;
  const parcel_id = overrides.parcel_id ?? `${String(n % 100).padStart(2, '0')}-${String(n).padStart(6, '0')}-000`;
  const county_slug = overrides.county_slug ?? 'alachua';
  const holder_name = overrides.holder_name ?? ['Acme Tax Fund LLC', 'Sunshine Liens LP', 'Gator Capital'][n % 3]!;
  const record = {
    id: `cert_${hex20(`${county_slug}|2023|${normalizeKey(certificate_number)}`)}`,
    certificate_number,
    certificate_number_normalized: normalizeKey(certificate_number),
    county_slug,
    county_name: 'Alachua',
    parcel_id,
    parcel_id_normalized: normalizeKey(parcel_id),
    tax_year: 2023,
    status: 'sold',
    face_amount: 100 + (n % 5000) + 0.25,
    delinquent_amount: 90 + (n % 5000),
    interest_rate: 18 - (n % 18),
    // Certificates of tax year Y are sold at the sale of Y+1, by June 1 (s. 197.402(3)).
    sale_date: `${(overrides.tax_year ?? 2023) + 1}-06-01`,
    holder_id: `hld_${hex20(holder_name.toLowerCase())}`,
    holder_name,
    struck_to_county: false,
    vendor: 'tax_collector',
    redeemed: false,
    redeemed_date: null,
    redemption_amount: null,
    tax_deed_application_date: null,
    owner_name: ['José Núñez', 'Mary Smith', 'Oak Grove Holdings Inc'][n % 3]!,
    site_address_full: `${100 + n} NW ${(n % 40) + 1}th St, Gainesville, FL 32601`,
    legal_description: `LOT ${n % 50} BLK ${n % 7} OAK PARK S/D`,
    batch_number: null,
    parcel_url: `https://parcels.taxcert.dev/api/v1/parcels/${county_slug}/${encodeURIComponent(parcel_id)}`,
    ingested_at: '2024-07-01T12:00:00.000Z',
    ...overrides,
  };
  if (record.redeemed_date !== null && overrides.redemption_amount === undefined)
    record.redemption_amount =
      quoteAmounts(record.face_amount, record.interest_rate, record.sale_date, record.redeemed_date).holder_amount_cents / 100;
  return CertificateRecord.parse(record);
}
