import { describe, expect, it } from 'vitest';
import { mapCertificate } from '../../../../../../services/api/routes/certificates/map-row.ts';
import { CERTIFICATE_COLUMNS, CERTIFICATE_SOURCE, CertificateRow } from '../../../../../../services/api/routes/certificates/row.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';

describe('mapCertificate', () => {
  const stored = sampleCertificate({ parcel_id: '12-34 56/7', county_slug: 'miami-dade', parcel_url: 'https://frozen.example.com/x' }, 4);

  it('renders exactly the 2.2 fields, in order, whatever else the document carries', () => {
    const row = mapCertificate(stored, 'https://parcels.example.test/api/');
    expect(Object.keys(row)).toEqual([
      'id',
      'certificate_number',
      'county_slug',
      'county_name',
      'parcel_id',
      'tax_year',
      'status',
      'face_amount',
      'delinquent_amount',
      'interest_rate',
      'sale_date',
      'holder_id',
      'holder_name',
      'vendor',
      'redeemed',
      'redeemed_date',
      'redemption_amount',
      'tax_deed_application_date',
      'owner_name',
      'site_address_full',
      'parcel_url',
    ]);
    expect(CERTIFICATE_COLUMNS).toEqual(Object.keys(row));
    for (const hidden of [
      'certificate_number_normalized',
      'parcel_id_normalized',
      'legal_description',
      'batch_number',
      'ingested_at',
      'struck_to_county',
    ])
      expect(row).not.toHaveProperty(hidden);
    expect(CertificateRow.parse(row)).toEqual(row);
  });

  it('builds parcel_url from the base URL given now, not the one frozen at ingest', () => {
    expect(mapCertificate(stored, 'https://parcels.example.test/api/').parcel_url).toBe(
      'https://parcels.example.test/api/miami-dade/12-34%2056%2F7',
    );
  });

  it('asks the engine only for the stored fields a row is made of', () => {
    expect(CERTIFICATE_SOURCE).toEqual(CERTIFICATE_COLUMNS.filter((c) => c !== 'parcel_url'));
  });

  it('writes null for the unset dates and amounts', () => {
    const row = mapCertificate(stored, 'https://p.example');
    expect(row).toMatchObject({ redeemed: false, redeemed_date: null, redemption_amount: null, tax_deed_application_date: null });
  });
});
