import { createReadStream, readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { type ReadContext, describeProblem, type FormatAdapter, type RawRow, type RowProblem } from '../../../../indexer/adapters/types.ts';
import type { FormatWriter } from '../../../../services/generator/writers/format-writer.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { parcelUrl } from '../../../../services/domain/county-facts.ts';
import { FileRejectedError } from '../../../../indexer/errors.ts';
import { certificateId, createHolderIds, holderId, normalizeKey } from '../../../../services/domain/ids.ts';
import { CertificateRecord } from '../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

/**
 * Hand-made canonical records for the writer -> parser round trips, and the
 * small helpers every adapter test shares. The records cover each state of
 * spec section 3 and the awkward text (commas, quotes, line breaks, punctuation
 * in ids) that breaks naive exports.
 */

export const registry = loadRegistry();
export const county = registry.county('miami-dade')!;
export const ctx: ReadContext = { county, counties: registry.counties, taxYear: 2024 };
export const PARCEL_BASE = 'https://parcels.example.com/v1/parcels';
export const INGESTED_AT = '2024-07-01T12:00:00.000Z';

export const fixture = (format: string, name: string) => new URL(`../../../../fixtures/files/${format}/${name}`, import.meta.url);

export function buildCtx(vendor: string) {
  return {
    county,
    counties: registry.counties,
    taxYear: 2024,
    vendor,
    parcelBaseUrl: PARCEL_BASE,
    ingestedAt: INGESTED_AT,
    holderIds: createHolderIds(),
  };
}

type Shape = Omit<
  CertificateRecord,
  | 'id'
  | 'certificate_number_normalized'
  | 'county_slug'
  | 'county_name'
  | 'parcel_id_normalized'
  | 'holder_id'
  | 'vendor'
  | 'parcel_url'
  | 'ingested_at'
  | 'tax_year'
>;

function record(vendor: string, s: Shape): CertificateRecord {
  return CertificateRecord.parse({
    ...s,
    id: certificateId(county.slug, 2024, s.certificate_number),
    certificate_number_normalized: normalizeKey(s.certificate_number),
    county_slug: county.slug,
    county_name: county.name,
    tax_year: 2024,
    parcel_id_normalized: normalizeKey(s.parcel_id),
    holder_id: holderId(s.holder_name),
    vendor,
    parcel_url: parcelUrl(PARCEL_BASE, county.slug, s.parcel_id),
    ingested_at: INGESTED_AT,
  });
}

const base = {
  status: 'sold',
  interest_rate: 0.25,
  // Tax year 2024 is sold in 2025, by June 1 (s. 197.402(3)).
  sale_date: '2025-05-28',
  struck_to_county: false,
  redeemed: false,
  redeemed_date: null,
  redemption_amount: null,
  tax_deed_application_date: null,
  legal_description: null,
  batch_number: null,
} as const;

export function sampleRecords(vendor: string): CertificateRecord[] {
  return [
    record(vendor, {
      ...base,
      certificate_number: '2024-000123',
      parcel_id: '01-3125-041-0010',
      face_amount: 1234.56,
      delinquent_amount: 1180.1,
      holder_name: 'Gulf Coast Lien Fund II, LLC',
      owner_name: 'SMITH, JOHN & MARY',
      site_address_full: '123 NW 5TH ST, MIAMI, FL 33101',
      legal_description: 'LOT 5, BLK 3 "PALM ESTATES"\nPB 12-34, LESS N 10 FT',
      batch_number: 'B-07',
    }),
    record(vendor, {
      ...base,
      certificate_number: '2024-000124',
      parcel_id: '30-4022-001-1234',
      status: 'redeemed',
      face_amount: 0.07,
      delinquent_amount: 0,
      interest_rate: 0,
      holder_name: 'Sunshine Tax Certs Inc.',
      redeemed: true,
      redeemed_date: '2025-09-15',
      redemption_amount: 0.07, // a 0% bid pays back the face
      owner_name: "O'BRIEN, PATRICK",
      site_address_full: '77 OCEAN DR #4B, MIAMI BEACH, FL 33139',
      legal_description: 'UNIT 4B OCEAN TOWERS CONDO',
    }),
    record(vendor, {
      ...base,
      certificate_number: '2024-000125',
      parcel_id: '04.2210.003/0450',
      status: 'available',
      face_amount: 98765.43,
      delinquent_amount: 95000,
      interest_rate: 18,
      struck_to_county: true,
      holder_name: 'Miami-Dade County',
      owner_name: 'ACME HOLDINGS TRUST',
      site_address_full: '0 UNASSIGNED, HOMESTEAD, FL 33030',
      batch_number: '12',
    }),
    record(vendor, {
      ...base,
      certificate_number: '2024-000126',
      parcel_id: '01 3125 041 0020',
      status: 'tax_deed_applied',
      face_amount: 4500,
      delinquent_amount: 4321.99,
      interest_rate: 5.5,
      holder_name: 'BAYVIEW | PARTNERS\\LP',
      tax_deed_application_date: '2027-04-05',
      owner_name: 'GARCIA, ANA\tMARIA',
      site_address_full: '9 CALLE OCHO, MIAMI, FL 33135',
      legal_description: 'BEG AT NE COR OF SEC 3,\r\nTH S 100 FT;\n\nTH W 50 FT | TO POB\\',
    }),
    record(vendor, {
      ...base,
      certificate_number: '2024-000127',
      parcel_id: '35-2030-000-0001',
      status: 'advertised',
      face_amount: 310.2,
      delinquent_amount: 300,
      interest_rate: 18,
      holder_name: 'Miami-Dade County',
      owner_name: 'PEÑA, JOSÉ',
      site_address_full: '1 MAIN ST, MIAMI, FL 33128',
      legal_description: `${'LONG LEGAL '.repeat(30)}END`,
    }),
    record(vendor, {
      ...base,
      certificate_number: '2024-000128',
      parcel_id: '35-2030-000-0002',
      status: 'redeemed',
      face_amount: 2000,
      delinquent_amount: 1900.5,
      interest_rate: 18,
      struck_to_county: true,
      holder_name: 'Miami-Dade County',
      redeemed: true,
      redeemed_date: '2026-01-02',
      redemption_amount: 2240, // June 2025 to January 2026: 8 months at 18%
      owner_name: 'DOE, JANE',
      site_address_full: '2 MAIN ST, MIAMI, FL 33128',
    }),
  ];
}

export async function collect(rows: AsyncIterable<RawRow>): Promise<RawRow[]> {
  const out: RawRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

export function readFixture(adapter: FormatAdapter, name: string, c: ReadContext = ctx): Promise<RawRow[]> {
  return collect(adapter.rows(createReadStream(fixture(adapter.format, name)), c));
}

export function fromText(text: string | Buffer): Readable {
  return Readable.from([typeof text === 'string' ? Buffer.from(text) : text]);
}

/** The FileRejectedError a file ends in (reading every row and building each), or null when it loads. */
export async function rejection(adapter: FormatAdapter, source: Readable, c: ReadContext = ctx) {
  try {
    for await (const row of adapter.rows(source, c))
      buildCertificate(adapter.toInput(row).input, [], { ...buildCtx('x'), county: c.county });
    return null;
  } catch (err) {
    if (err instanceof FileRejectedError) return err;
    throw err;
  }
}

export const rejectFixture = (adapter: FormatAdapter, name: string, c: ReadContext = ctx) =>
  rejection(adapter, createReadStream(fixture(adapter.format, name)), c);

/** records -> writer -> bytes -> parser -> buildCertificate. */
export async function roundTrip(writer: FormatWriter, adapter: FormatAdapter, vendor: string) {
  const records = sampleRecords(vendor);
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (c: Buffer) => chunks.push(c));
  const written = await writer.write(records, sink, ctx);
  sink.end();
  const bytes = Buffer.concat(chunks);
  const rows = await collect(adapter.rows(fromText(bytes), ctx));
  const rebuilt = rows.map((row) => {
    const { input, reasons } = adapter.toInput(row);
    return buildCertificate(input, reasons, buildCtx(vendor));
  });
  return { records, written, text: bytes.toString('utf8'), rebuilt };
}

export function fixtureText(format: string, name: string): string {
  return readFileSync(fixture(format, name), 'utf8');
}

/** A build or adapter result with its problems as the quarantine shows them ("field: problem"). */
export function readable(result: object): object {
  return 'reasons' in result && Array.isArray(result.reasons)
    ? { ...result, reasons: (result.reasons as RowProblem[]).map(describeProblem) }
    : result;
}
