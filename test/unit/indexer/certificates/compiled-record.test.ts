import { describe, expect, it } from 'vitest';
import { generateState } from '../../../../services/generator/generate-state.ts';
import { CompiledCertificateRecord } from '../../../../indexer/certificates/build-certificate.ts';
import { CertificateRecord } from '../../../../services/domain/records.ts';

/** What a parse says: the record it gives, every issue's field and message, or what it threw. */
function verdict(schema: typeof CertificateRecord, candidate: unknown) {
  try {
    const parsed = schema.safeParse(candidate);
    return parsed.success ? { ok: parsed.data } : { issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  } catch (err) {
    // The chapter 197 refinement computes redemption quotes, which throw on amounts that are not whole cents.
    return { threw: String(err) };
  }
}

/** One broken field (or rule) at a time, each a check of the schema's own or of its refinement. */
const BREAKS: Record<string, Record<string, unknown>> = {
  id: { id: 'cert_XYZ' },
  blank_text: { owner_name: '   ' },
  padded_text: { owner_name: '  PADDED OWNER  ' },
  long_number: { certificate_number: 'x'.repeat(41) },
  county_slug: { county_slug: 'Miami Dade' },
  year: { tax_year: 1989 },
  status: { status: 'lost' },
  cents: { face_amount: 10.005 },
  negative: { delinquent_amount: -1 },
  rate: { interest_rate: 18.5 },
  date: { sale_date: '2024-02-30' },
  redeemed_flag: { redeemed: true },
  redeemed_date: { redeemed_date: '2024-06-01' },
  struck_rate: { struck_to_county: true, interest_rate: 5 },
  deed_date: { status: 'tax_deed_applied' },
  url: { parcel_url: 'not a url' },
  timestamp: { ingested_at: '2026-11-22' },
  wrong_type: { face_amount: '100.00' },
  missing: { holder_name: undefined },
};

describe('the compiled certificate schema the ingest parses with', () => {
  const records = [
    ...generateState({ certificates: 3000, seed: 7, today: '2026-11-22', parcelBaseUrl: 'https://parcels.example.test' }).allRecords(),
  ];

  it('gives the same record as the schema for every generated certificate', () => {
    for (const r of records) expect(verdict(CompiledCertificateRecord, r)).toEqual(verdict(CertificateRecord, r));
  });

  it('refuses what the schema refuses, with the same fields and messages', () => {
    for (const [name, overrides] of Object.entries(BREAKS))
      for (const r of records.slice(0, 50)) {
        const candidate = { ...r, ...overrides };
        const expected = verdict(CertificateRecord, candidate);
        expect(verdict(CompiledCertificateRecord, candidate), name).toEqual(expected);
      }
    // Each break is refused by the schema itself (padded_text is trimmed), so the comparison above is not vacuous.
    const neverRefused = Object.keys(BREAKS).filter((name) =>
      records.slice(0, 50).every((r) => 'ok' in verdict(CertificateRecord, { ...r, ...BREAKS[name] })),
    );
    expect(neverRefused).toEqual(['padded_text']);
  });
});
