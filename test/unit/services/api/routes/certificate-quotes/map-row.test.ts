import { describe, expect, it } from 'vitest';
import { mapDeedEstimate, mapQuote } from '../../../../../../services/api/routes/certificate-quotes/map-row.ts';
import { DeedEstimateObject, RedemptionQuoteObject } from '../../../../../../services/api/routes/certificate-quotes/row.ts';
import type { CertificateDocument } from '../../../../../../services/api/routes/certificates/row.ts';
import { redemptionQuote } from '../../../../../../services/domain/redemption-quote.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';

const doc = (o: Partial<CertificateDocument> = {}): CertificateDocument => {
  const { parcel_url: _, ...rest } = {
    ...sampleCertificate({ face_amount: 1234.56, interest_rate: 9.75, sale_date: '2023-06-01', tax_year: 2022 }),
    ...o,
  };
  return rest as CertificateDocument;
};

describe('certificate-quotes map-row', () => {
  it('maps a redeemable quote to dollars, exactly to the cent, in the public schema', () => {
    const c = doc();
    const row = mapQuote(c, '2024-11-20', redemptionQuote(c, '2024-11-20'));
    expect(RedemptionQuoteObject.strict().parse(row)).toEqual(row);
    expect(row).toMatchObject({
      accrued_interest: 180.55,
      minimum_interest: 61.73,
      holder_amount: 1415.11,
      redemption_fee: 6.25,
      total_due: 1421.36,
      rule: 'accrued',
    });
  });

  it('nulls every amount when not redeemable', () => {
    const c = doc({ status: 'cancelled' });
    const row = mapQuote(c, '2024-11-20', redemptionQuote(c, '2024-11-20'));
    expect(row).toMatchObject({
      redeemable: false,
      reason: 'cancelled',
      holder_amount: null,
      total_due: null,
      rule: null,
      interest_months: null,
      face_amount: 1234.56,
    });
  });

  it('adds the other certificates in cents and the $75 fee; an unredeemable one counts nothing', () => {
    const c = doc();
    const others = [
      { doc: doc({ id: 'cert_00000000000000000001' }), holder_amount_cents: 100_001 },
      { doc: doc({ id: 'cert_00000000000000000002' }), holder_amount_cents: 20_002 },
      { doc: doc({ id: 'cert_00000000000000000003' }), holder_amount_cents: null },
    ];
    const row = mapDeedEstimate(c, '2025-04-01', { eligible: true, eligible_from: '2025-04-01' }, others);
    expect(DeedEstimateObject.strict().parse(row)).toEqual(row);
    expect(row).toMatchObject({ other_certificates_total: 1200.03, application_fee: 75, known_total: 1275.03 });
    expect(row.other_certificates.map((o) => o.holder_amount)).toEqual([1000.01, 200.02, null]);
  });
});
