import { describe, expect, it } from 'vitest';
import { certbidJsonl as adapter } from '../../../../indexer/adapters/certbid-jsonl.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { certbidJsonlWriter as writer } from '../../../../services/generator/writers/certbid-jsonl.ts';
import { buildCtx, collect, ctx, fromText, readFixture, rejectFixture, rejection, roundTrip } from './sample-records.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';

const build = (row: Parameters<typeof adapter.toInput>[0]) => {
  const { input, reasons } = adapter.toInput(row);
  return buildCertificate(input, reasons, buildCtx('certbid'));
};

describe('certbid-jsonl: good feed', () => {
  it('maps redeemed, tax deed, struck and advertised certificates', async () => {
    const [, redeemed, tda, struck, advertised] = (await readFixture(adapter, 'good.jsonl')).map((r) => build(r));
    expect(redeemed).toMatchObject({
      ok: true,
      record: { status: 'redeemed', redeemed: true, redeemed_date: '2025-09-15', redemption_amount: 537.6 },
    });
    expect(tda).toMatchObject({ ok: true, record: { status: 'tax_deed_applied', tax_deed_application_date: '2027-04-06' } });
    expect(struck).toMatchObject({ ok: true, record: { struck_to_county: true, holder_name: 'Miami-Dade County' } });
    expect(advertised).toMatchObject({ ok: true, record: { status: 'advertised', interest_rate: 18 } });
  });
});

describe('certbid-jsonl: bad rows', () => {
  it('reports each bad field and keeps loading', async () => {
    const rows = await readFixture(adapter, 'bad-rows.jsonl');
    expect(rows.map((r) => adapter.toInput(r).reasons.map(describeProblem))).toEqual([
      ['face_amount: "$12,3x4" is not a dollar amount'],
      ['sale_date: "06/01/2024" is not a date (YYYY-MM-DD)', 'struck_to_county: "yes" is not true or false'],
      ['tax_year: "2024x" is not a four-digit year', 'status: "won" is not a known status'],
      ['face_amount: "-5" is negative', 'redeemed_date: "2024-02-30" is not a real calendar date'],
      ['row: is not a JSON object'],
      ['row: is not a JSON object'],
      [],
    ]);
    expect(rows[4]).toMatchObject({ line: 6, raw: '{"certificateNumber":"2024-001005", "parcelId": ' });
    expect(build(rows[6]!)).toMatchObject({ ok: true });
  });
});

describe('certbid-jsonl: a row nested 20,000 deep', () => {
  it('is one refused row, not a stack overflow that fails the file', async () => {
    const deep = (d: number) => `{"certificateNumber":"2024-000901","holderName":${'['.repeat(d)}${']'.repeat(d)}}`;
    const deepObject = `{"certificateNumber":"2024-000902","redemption":${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}}`;
    const text = [
      '{"feed":"certbid-certificates","version":1,"county":"miami-dade","taxYear":2024}',
      deep(20000),
      deepObject,
      deep(7),
      '{"trailer":true,"count":3}',
      '',
    ].join('\n');
    const rows = await collect(adapter.rows(fromText(text), ctx));
    expect(rows.map((r) => [r.line, r.problem])).toEqual([
      [2, 'nests deeper than 8 levels'],
      [3, 'nests deeper than 8 levels'],
      [4, undefined],
    ]);
    expect(adapter.toInput(rows[0]!).reasons.map(describeProblem)).toEqual(['row: nests deeper than 8 levels']);
  });
});

describe('certbid-jsonl: file rejections', () => {
  it.each([
    ['empty.jsonl', 'empty_file'],
    ['header-only.jsonl', 'empty_file'],
    ['truncated.jsonl', 'truncated_file'],
    ['bad-count.jsonl', 'truncated_file'],
    ['wrong-county.jsonl', 'wrong_county'],
    ['unknown-format.jsonl', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectFixture(adapter, name)).toMatchObject({ code });
  });

  it('says what it expected and what it found', async () => {
    expect((await rejectFixture(adapter, 'wrong-county.jsonl'))?.message).toBe(
      'certbid-jsonl header names county "broward" (Broward) but the job is for Miami-Dade (miami-dade)',
    );
    expect((await rejectFixture(adapter, 'bad-count.jsonl'))?.message).toBe(
      'certbid-jsonl trailer says 50 certificates but the feed has 5',
    );
    const other = await rejection(adapter, fromText('{"feed":"other","county":"miami-dade"}\n'));
    expect(other?.message).toMatch(/^expected a certbid-jsonl header line \{"feed":"certbid-certificates",...\} but found/);
    expect(await rejection(adapter, fromText(Buffer.from([0x00, 0x61, 0x73, 0x6d])))).toMatchObject({
      code: 'unknown_format',
    });
  });
});

describe('certbid-jsonl: round trip', () => {
  it('gives back the records it was given', async () => {
    const { records, written, rebuilt, text } = await roundTrip(writer, adapter, 'certbid');
    expect(written).toBe(records.length);
    expect(text.endsWith(`{"trailer":true,"count":${records.length}}\n`)).toBe(true);
    expect(rebuilt).toEqual(records.map((record) => ({ ok: true, record })));
  });
});
