import { describe, expect, it } from 'vitest';
import { countyPipe as adapter } from '../../../../indexer/adapters/county-pipe.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { countyPipeWriter as writer } from '../../../../services/generator/writers/county-pipe.ts';
import { buildCtx, fromText, readable, readFixture, rejectFixture, rejection, roundTrip } from './sample-records.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';

const build = (row: Parameters<typeof adapter.toInput>[0]) => {
  const { input, reasons } = adapter.toInput(row);
  return buildCertificate(input, reasons, buildCtx('tax_collector'));
};

describe('county-pipe: good file', () => {
  it('maps redeemed, tax deed, struck and advertised rows', async () => {
    const [, redeemed, tda, struck, advertised] = (await readFixture(adapter, 'good.pipe')).map((r) => build(r));
    expect(redeemed).toMatchObject({
      ok: true,
      record: { status: 'redeemed', redeemed: true, redeemed_date: '2025-09-15', redemption_amount: 537.6 },
    });
    expect(tda).toMatchObject({ ok: true, record: { status: 'tax_deed_applied', tax_deed_application_date: '2027-04-06' } });
    expect(struck).toMatchObject({ ok: true, record: { struck_to_county: true, holder_name: 'Miami-Dade County' } });
    expect(advertised).toMatchObject({ ok: true, record: { status: 'advertised', interest_rate: 18 } });
  });
});

describe('county-pipe: bad rows', () => {
  it('reports each bad field and keeps loading', async () => {
    const rows = await readFixture(adapter, 'bad-rows.pipe');
    expect(rows.map((r) => adapter.toInput(r).reasons.map(describeProblem))).toEqual([
      ['face_amount: "$1.234,56" is not a dollar amount'],
      ['sale_date: "2024-02-30" is not a real calendar date', 'redeemed: "1" is not Y or N'],
      ['tax_year: "FY24" is not a four-digit year', 'status: "XXX" is not a known status'],
      [],
      ['row: has 7 columns, expected 19'],
      [],
    ]);
    expect(readable(build(rows[3]!))).toEqual({
      ok: false,
      reasons: ['tax_deed_application_date: status tax_deed_applied needs tax_deed_application_date'],
    });
    expect(build(rows[5]!)).toMatchObject({ ok: true });
  });
});

describe('county-pipe: file rejections', () => {
  it.each([
    ['empty.pipe', 'empty_file'],
    ['header-only.pipe', 'empty_file'],
    ['truncated.pipe', 'truncated_file'],
    ['bad-count.pipe', 'truncated_file'],
    ['wrong-county.pipe', 'wrong_county'],
    ['unknown-format.pipe', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectFixture(adapter, name)).toMatchObject({ code });
  });

  it('says what the trailer claimed', async () => {
    expect((await rejectFixture(adapter, 'bad-count.pipe'))?.message).toBe('county-pipe trailer says "7" rows but the file has 5');
    expect((await rejectFixture(adapter, 'truncated.pipe'))?.message).toBe('county-pipe file has no "EOF|<count>" trailer: it was cut off');
    expect(await rejection(adapter, fromText(Buffer.from([0xff, 0xd8, 0xff, 0, 0x10])))).toMatchObject({
      code: 'unknown_format',
    });
  });
});

describe('county-pipe: round trip', () => {
  it('gives back the records it was given', async () => {
    const { records, written, rebuilt, text } = await roundTrip(writer, adapter, 'tax_collector');
    expect(written).toBe(records.length);
    expect(text.endsWith(`EOF|${records.length}\n`)).toBe(true);
    expect(rebuilt).toEqual(records.map((record) => ({ ok: true, record })));
  });
});
