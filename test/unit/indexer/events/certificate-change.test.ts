import { describe, expect, it } from 'vitest';
import { certificateChange, certificatesLoaded, statusEventType } from '../../../../indexer/events/certificate-change.ts';
import { CERTIFICATE_SOURCE, mapCertificate } from '../../../../services/domain/certificate-row.ts';
import { CERTIFICATE_STATUSES, type CertificateRecord } from '../../../../services/domain/records.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

// The change feed: which fields of a certificate count as a change, and which event a status move is.

const BASE = 'https://parcels.example.test/api/v1/parcels';
const row = (record: CertificateRecord) => mapCertificate(record, BASE);
const sold = sampleCertificate({}, 7);

describe('what a certificate of a file changes', () => {
  it('is nothing when only stored, non-public fields differ (ingest time, normalized keys, legal text, batch, holder group)', () => {
    const again = sampleCertificate({ ingested_at: '2030-01-01T00:00:00.000Z', legal_description: 'ANOTHER LOT', batch_number: 'B-99' }, 7);
    const withGroup = { ...again, holder_group: 'someone else', certificate_number_normalized: 'X' } as CertificateRecord;
    expect(certificateChange(row(sold), row(withGroup))).toBeNull();
  });

  it('counts every public field, each with its old value in previous, and only those', () => {
    const moved = sampleCertificate({ owner_name: 'NEW OWNER LLC', face_amount: 999.5 }, 7);
    expect(certificateChange(row(sold), row(moved))).toEqual({
      type: 'certificate.updated',
      countySlug: 'alachua',
      data: { object: row(moved), previous: { owner_name: sold.owner_name, face_amount: sold.face_amount } },
    });
  });

  it('names a redemption certificate.redeemed, with the status and the redemption fields it filled in previous', () => {
    const redeemed = sampleCertificate({ status: 'redeemed', redeemed: true, redeemed_date: '2025-03-01' }, 7);
    const event = certificateChange(row(sold), row(redeemed))!;
    expect(event.type).toBe('certificate.redeemed');
    expect(event.data.previous).toEqual({ status: 'sold', redeemed: false, redeemed_date: null, redemption_amount: null });
    expect(event.data.object).toEqual(row(redeemed));
  });

  it('gives a status move the event of the status moved to; any other move is certificate.status_changed', () => {
    const types = Object.fromEntries(CERTIFICATE_STATUSES.map((s) => [s, statusEventType(s)]));
    expect(types).toEqual({
      available: 'certificate.status_changed',
      advertised: 'certificate.status_changed',
      sold: 'certificate.status_changed',
      redeemed: 'certificate.redeemed',
      lands_available: 'certificate.lands_available',
      tax_deed_applied: 'certificate.tax_deed_applied',
      cancelled: 'certificate.cancelled',
    });
    const deed = sampleCertificate({ status: 'tax_deed_applied', tax_deed_application_date: '2026-05-01' }, 7);
    expect(certificateChange(row(sold), row(deed))).toMatchObject({
      type: 'certificate.tax_deed_applied',
      data: { previous: { status: 'sold', tax_deed_application_date: null } },
    });
    const advertised = sampleCertificate({ status: 'advertised' }, 7);
    expect(certificateChange(row(sold), row(advertised))).toMatchObject({
      type: 'certificate.status_changed',
      data: { previous: { status: 'sold' } },
    });
  });

  it('calls a certificate the index does not hold certificate.created, with nothing in previous', () => {
    expect(certificateChange(undefined, row(sold))).toEqual({
      type: 'certificate.created',
      countySlug: 'alachua',
      data: { object: row(sold), previous: {} },
    });
  });

  it('reads the indexed side through the same public fields the API fetches', () => {
    // What the index returns for CERTIFICATE_SOURCE, mapped as the API maps it, is the same row.
    const fetched = Object.fromEntries(
      CERTIFICATE_SOURCE.map((f) => [f, sold[f as keyof CertificateRecord]]),
    ) as unknown as CertificateRecord;
    expect(certificateChange(row(fetched), row(sold))).toBeNull();
  });

  it('makes a first load one certificates.loaded with county, tax year and count', () => {
    expect(certificatesLoaded({ slug: 'alachua', name: 'Alachua' }, 2023, 150)).toEqual({
      type: 'certificates.loaded',
      countySlug: 'alachua',
      data: { object: { county_slug: 'alachua', county_name: 'Alachua', tax_year: 2023, count: 150 }, previous: {} },
    });
  });
});
