import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lienportCsv as adapter } from '../../../../indexer/adapters/lienport-csv.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { lienportCsvWriter as writer } from '../../../../services/generator/writers/lienport-csv.ts';
import { buildCtx, fixture, fromText, readable, readFixture, rejectFixture, rejection, roundTrip } from './sample-records.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';

const build = (row: Parameters<typeof adapter.toInput>[0]) => {
  const { input, reasons } = adapter.toInput(row);
  return buildCertificate(input, reasons, buildCtx('lienport'));
};

describe('lienport-csv: good file', () => {
  it('maps redeemed, tax deed, struck and advertised rows', async () => {
    const rows = await readFixture(adapter, 'good.csv');
    const [, redeemed, tda, struck, advertised] = rows.map((r) => build(r));
    expect(redeemed).toMatchObject({
      ok: true,
      record: { status: 'redeemed', redeemed: true, redeemed_date: '2025-09-15', redemption_amount: 537.6 },
    });
    expect(tda).toMatchObject({
      ok: true,
      record: { status: 'tax_deed_applied', tax_deed_application_date: '2027-04-06', legal_description: null },
    });
    expect(struck).toMatchObject({
      ok: true,
      record: { status: 'available', struck_to_county: true, holder_name: 'Miami-Dade County', interest_rate: 18 },
    });
    expect(advertised).toMatchObject({
      ok: true,
      record: { status: 'advertised', holder_name: 'Miami-Dade County', interest_rate: 18, batch_number: null },
    });
  });
});

describe('lienport-csv: rows that break chapter 197 (an earlier good.csv held them and loaded them as good)', () => {
  it('refuses each, naming the statute it breaks', async () => {
    const rows = await readFixture(adapter, 'breaks-chapter-197.csv');
    const built = rows.map((r) => build(r));
    for (const b of built) expect(b.ok).toBe(false);
    const reasons = built.map((b) => (b.ok ? [] : b.reasons));
    // Every row: tax year 2024 sold on 2024-06-01, in its own year. Each reason names its field and its statute.
    for (const r of reasons)
      expect(r).toContainEqual({
        field: 'sale_date',
        problem: expect.stringMatching(/^tax year 2024 certificates are sold in 2025.*s\. 197\.432/),
      });
    expect(reasons[1]).toContainEqual({
      field: 'redemption_amount',
      problem: expect.stringMatching(/537\.60 on 2024-09-15 \(s\. 197\.172, s\. 197\.402\(3\), s\. 197\.472\(2\)\); 527\.36 is not that$/),
    });
    expect(reasons[2]).toContainEqual({
      field: 'tax_deed_application_date',
      problem: expect.stringMatching(/from 2026-04-01 \(s\. 197\.502\(1\)\); 2024-11-30 is earlier$/),
    });
    expect(reasons[3]).toContainEqual({
      field: 'status',
      problem: expect.stringMatching(/^a certificate struck to the county .*s\. 197\.432.*status is sold$/),
    });
    // The quarantine shows them as "field: problem".
    expect(readable(built[2]!)).toMatchObject({
      reasons: expect.arrayContaining([
        expect.stringMatching(/^tax_deed_application_date: a tax deed application may be made only after 2 years/),
      ]),
    });
  });
});

describe('lienport-csv: bad rows', () => {
  it('reports each bad field and keeps loading', async () => {
    const rows = await readFixture(adapter, 'bad-rows.csv');
    expect(rows.map((r) => adapter.toInput(r).reasons.map(describeProblem))).toEqual([
      ['face_amount: "$12,3x4" is not a dollar amount'],
      ['sale_date: "02/30/2024" is not a real calendar date'],
      ['status: "PENDING" is not a known status', 'struck_to_county: "X" is not Y or N'],
      [
        'delinquent_amount: "($90.00)" is negative',
        'interest_rate: "abc" is not a percent',
        'sale_date: "6/1/24" is not a date (MM/DD/YYYY)',
      ],
      ['row: has 6 columns, expected 19'],
      [],
    ]);
    expect(rows[4]).toMatchObject({ line: 6, raw: '2024-000205,2024,Miami-Dade,01-0000-000-0005,SOLD,$100.00' });
    expect(readable(build(rows[3]!))).toMatchObject({ ok: false, reasons: expect.arrayContaining(['certificate_number: required']) });
    expect(build(rows[5]!)).toMatchObject({ ok: true });
  });
});

describe('lienport-csv: file rejections', () => {
  it.each([
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['truncated.csv', 'truncated_file'],
    ['wrong-county.csv', 'wrong_county'],
    ['unknown-format.csv', 'unknown_format'],
    ['other-header.csv', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectFixture(adapter, name)).toMatchObject({ code });
  });

  it('says what it expected and what it found', async () => {
    const err = await rejectFixture(adapter, 'other-header.csv');
    expect(err?.message).toMatch(/^expected a lienport-csv header "Cert #","Tax Year",.* but found "Certificate","Year","Parcel"$/);
    expect((await rejectFixture(adapter, 'wrong-county.csv'))?.message).toBe(
      'file names county "Broward" (Broward) but the job is for Miami-Dade (miami-dade)',
    );
  });

  it('refuses binary data and an unclosed quote', async () => {
    expect(await rejection(adapter, fromText(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1])))).toMatchObject({
      code: 'unknown_format',
    });
    const text = await import('node:fs').then((fs) => fs.readFileSync(fixture(adapter.format, 'good.csv'), 'utf8'));
    expect(await rejection(adapter, fromText(text.slice(0, text.indexOf('PB 12-34'))))).toMatchObject({
      code: 'truncated_file',
    });
    expect(await rejection(adapter, createReadStream(fixture(adapter.format, 'good.csv')))).toBeNull();
  });
});

describe('lienport-csv: round trip', () => {
  it('gives back the records it was given', async () => {
    const { records, written, rebuilt, text } = await roundTrip(writer, adapter, 'lienport');
    expect(written).toBe(records.length);
    expect(text.startsWith('"Cert #","Tax Year","County"')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(rebuilt).toEqual(records.map((record) => ({ ok: true, record })));
  });
});
