import { describe, expect, it } from 'vitest';
import { bidvaultTsv as adapter } from '../../../../indexer/adapters/bidvault-tsv.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { bidvaultTsvWriter as writer } from '../../../../services/generator/writers/bidvault-tsv.ts';
import { buildCtx, fromText, readable, readFixture, rejectFixture, rejection, roundTrip } from './sample-records.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';

const build = (row: Parameters<typeof adapter.toInput>[0]) => {
  const { input, reasons } = adapter.toInput(row);
  return buildCertificate(input, reasons, buildCtx('bidvault'));
};

describe('bidvault-tsv: good file', () => {
  it('maps redeemed, tax deed (county by name), struck and advertised rows', async () => {
    const [, redeemed, tda, struck, advertised] = (await readFixture(adapter, 'good.tsv')).map((r) => build(r));
    expect(redeemed).toMatchObject({
      ok: true,
      record: { status: 'redeemed', redeemed: true, redeemed_date: '2025-09-15', redemption_amount: 537.6 },
    });
    expect(tda).toMatchObject({ ok: true, record: { status: 'tax_deed_applied', tax_deed_application_date: '2027-04-06' } });
    expect(struck).toMatchObject({
      ok: true,
      record: { struck_to_county: true, holder_name: 'Miami-Dade County', face_amount: 98765.43 },
    });
    expect(advertised).toMatchObject({ ok: true, record: { status: 'advertised', interest_rate: 18 } });
  });
});

describe('bidvault-tsv: bad rows', () => {
  it('reports each bad field and keeps loading', async () => {
    const rows = await readFixture(adapter, 'bad-rows.tsv');
    expect(rows.map((r) => adapter.toInput(r).reasons.map(describeProblem))).toEqual([
      ['face_amount: "123.45" is not an amount in cents'],
      ['sale_date: "2024-06-01" is not a date (MM/DD/YYYY)', 'struck_to_county: "Y" is not 1 or 0'],
      ['status: "Sold Out" is not a known status', 'interest_rate: "18%" is not a percent'],
      [],
      ['row: has 5 columns, expected 18'],
      [],
    ]);
    expect(readable(build(rows[3]!))).toEqual({
      ok: false,
      reasons: [
        'redeemed_date: a redeemed certificate needs redeemed_date',
        'redemption_amount: a redeemed certificate needs redemption_amount',
      ],
    });
    expect(rows[4]).toMatchObject({ line: 6, raw: 'miami-dade\t2024-000606\t01-0000-000-0006\t2024\tWon' });
    expect(build(rows[5]!)).toMatchObject({ ok: true });
  });
});

describe('bidvault-tsv: file rejections', () => {
  it.each([
    ['empty.tsv', 'empty_file'],
    ['header-only.tsv', 'empty_file'],
    ['truncated.tsv', 'truncated_file'],
    ['wrong-county.tsv', 'wrong_county'],
    ['unknown-format.tsv', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectFixture(adapter, name)).toMatchObject({ code });
  });

  it('refuses JSON and binary data, saying what it expected', async () => {
    const err = await rejection(adapter, fromText('{"feed":"certbid"}\n'));
    expect(err).toMatchObject({ code: 'unknown_format' });
    expect(err?.message).toMatch(/^expected a bidvault-tsv header "county\\tcert_no.* but found "{\\"feed\\":\\"certbid\\"}"$/);
    expect(await rejection(adapter, fromText(Buffer.from([0, 1, 2, 10])))).toMatchObject({ code: 'unknown_format' });
  });
});

describe('bidvault-tsv: round trip', () => {
  it('gives back the records it was given', async () => {
    const { records, written, rebuilt } = await roundTrip(writer, adapter, 'bidvault');
    expect(written).toBe(records.length);
    expect(rebuilt).toEqual(records.map((record) => ({ ok: true, record })));
  });
});
