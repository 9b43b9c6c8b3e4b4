import { describe, expect, it } from 'vitest';
import { parcelmartCsv as adapter } from '../../../../indexer/adapters/parcelmart-csv.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { parcelmartCsvWriter as writer } from '../../../../services/generator/writers/parcelmart-csv.ts';
import { buildCtx, fromText, readable, readFixture, rejectFixture, rejection, roundTrip } from './sample-records.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';

const build = (row: Parameters<typeof adapter.toInput>[0]) => {
  const { input, reasons } = adapter.toInput(row);
  return buildCertificate(input, reasons, buildCtx('parcelmart'));
};

describe('parcelmart-csv: good file', () => {
  it('maps redeemed, tax deed, struck and advertised rows', async () => {
    const [, redeemed, tda, struck, advertised] = (await readFixture(adapter, 'good.csv')).map((r) => build(r));
    expect(redeemed).toMatchObject({
      ok: true,
      record: { status: 'redeemed', redeemed: true, redeemed_date: '2025-09-15', redemption_amount: 537.6, face_amount: 512 },
    });
    expect(tda).toMatchObject({ ok: true, record: { status: 'tax_deed_applied', tax_deed_application_date: '2027-04-06' } });
    expect(struck).toMatchObject({
      ok: true,
      record: { struck_to_county: true, holder_name: 'Miami-Dade County', interest_rate: 18, batch_number: '12' },
    });
    expect(advertised).toMatchObject({ ok: true, record: { status: 'advertised', holder_name: 'Miami-Dade County' } });
  });
});

describe('parcelmart-csv: bad rows', () => {
  it('reports each bad field and keeps loading', async () => {
    const rows = await readFixture(adapter, 'bad-rows.csv');
    expect(rows.map((r) => adapter.toInput(r).reasons.map(describeProblem))).toEqual([
      ['face_amount: "1,234.5x" is not a dollar amount'],
      [
        'sale_date: "06/01/2024" is not a date (YYYY-MM-DD)',
        'redeemed: "yes" is not true or false',
        'redeemed_date: "2024-13-01" is not a real calendar date',
      ],
      ['status: "PENDING" is not a known status', 'delinquent_amount: "-90.00" is negative'],
      ['row: has 8 columns, expected 19'],
      ['tax_year: "24" is not a four-digit year'],
      [],
    ]);
    expect(readable(build(rows[4]!))).toEqual({
      ok: false,
      reasons: ['tax_year: "24" is not a four-digit year', 'holder_name: required'],
    });
    expect(build(rows[5]!)).toMatchObject({ ok: true });
  });
});

describe('parcelmart-csv: file rejections', () => {
  it.each([
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['truncated.csv', 'truncated_file'],
    ['truncated-row.csv', 'truncated_file'],
    ['wrong-county.csv', 'wrong_county'],
    ['unknown-format.csv', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectFixture(adapter, name)).toMatchObject({ code });
  });

  it('refuses a JSON file and binary data', async () => {
    expect(await rejection(adapter, fromText('{"feed":"certbid","county":"miami-dade"}\n{"a":1}\n'))).toMatchObject({
      code: 'unknown_format',
    });
    expect(await rejection(adapter, fromText(Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0])))).toMatchObject({
      code: 'unknown_format',
    });
  });
});

describe('parcelmart-csv: round trip', () => {
  it('gives back the records it was given', async () => {
    const { records, written, rebuilt } = await roundTrip(writer, adapter, 'parcelmart');
    expect(written).toBe(records.length);
    expect(rebuilt).toEqual(records.map((record) => ({ ok: true, record })));
  });
});
