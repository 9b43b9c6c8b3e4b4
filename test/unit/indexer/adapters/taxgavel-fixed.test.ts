import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { taxgavelFixed as adapter } from '../../../../indexer/adapters/taxgavel-fixed.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { taxgavelFixedWriter as writer } from '../../../../services/generator/writers/taxgavel-fixed.ts';
import {
  buildCtx,
  ctx,
  fixture,
  fromText,
  readable,
  readFixture,
  rejectFixture,
  rejection,
  roundTrip,
  sampleRecords,
} from './sample-records.ts';
import { MAX_RECORD_CHARS } from '../../../../indexer/adapters/record-limit.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';

const build = (row: Parameters<typeof adapter.toInput>[0]) => {
  const { input, reasons } = adapter.toInput(row);
  return buildCertificate(input, reasons, buildCtx('taxgavel'));
};

describe('taxgavel-fixed: good file', () => {
  it('maps redeemed, tax deed, struck and advertised records', async () => {
    const [, redeemed, tda, struck, advertised] = (await readFixture(adapter, 'good.dat')).map((r) => build(r));
    expect(redeemed).toMatchObject({
      ok: true,
      record: { status: 'redeemed', redeemed: true, redeemed_date: '2025-09-15', redemption_amount: 537.6, interest_rate: 3 },
    });
    expect(tda).toMatchObject({
      ok: true,
      record: { status: 'tax_deed_applied', tax_deed_application_date: '2027-04-06', interest_rate: 5.5 },
    });
    expect(struck).toMatchObject({ ok: true, record: { struck_to_county: true, holder_name: 'Miami-Dade County' } });
    expect(advertised).toMatchObject({ ok: true, record: { status: 'advertised', interest_rate: 18, batch_number: null } });
  });
});

describe('taxgavel-fixed: bad rows', () => {
  it('reports each bad field or record and keeps loading', async () => {
    const rows = await readFixture(adapter, 'bad-rows.dat');
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 9]);
    expect(rows.map((r) => adapter.toInput(r).reasons.map(describeProblem))).toEqual([
      ['face_amount: "00001234X678" is not an amount in cents'],
      ['sale_date: "20240230" is not a real calendar date', 'struck_to_county: "?" is not Y or N'],
      ['status: "ZZ" is not a known status', 'interest_rate: "018.0" is not a rate in hundredths of a percent'],
      [],
      ['row: line 5 is "D2320242024-001205         01-0000-000-0..." (200 characters), expected 316'],
      ['row: unknown record type at line 6 is "X2320242024-001206         01-0000-000-0..." (316 characters)'],
      ["row: legal description has no closing 'E' record"],
      [],
    ]);
    expect(readable(build(rows[3]!))).toEqual({ ok: false, reasons: ["tax_year: 2023 does not match the job's tax year 2024"] });
    expect(build(rows[7]!)).toMatchObject({ ok: true });
  });
});

describe('taxgavel-fixed: file rejections', () => {
  it.each([
    ['empty.dat', 'empty_file'],
    ['trailer-only.dat', 'empty_file'],
    ['truncated.dat', 'truncated_file'],
    ['no-trailer.dat', 'truncated_file'],
    ['bad-count.dat', 'truncated_file'],
    ['wrong-county.dat', 'wrong_county'],
    ['wrong-county-trailer.dat', 'wrong_county'],
    ['unknown-format.dat', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectFixture(adapter, name)).toMatchObject({ code });
  });

  it("rejects a 'D' record whose 'L' records run past MAX_RECORD_CHARS as line_too_long", async () => {
    const good = readFileSync(fixture('taxgavel-fixed', 'good.dat'), 'utf8').split('\n');
    const detail = good[0]!;
    const piece = `L76C${'X'.repeat(76)}`;
    const endless = [detail, ...Array.from({ length: Math.ceil(MAX_RECORD_CHARS / 81) + 1 }, () => piece), ''].join('\n');
    const err = await rejection(adapter, fromText(endless));
    expect(err).toMatchObject({ code: 'line_too_long' });
    expect(err?.message).toMatch(/^taxgavel-fixed 'D' record with its 'L' records starting at line 1 is longer than/);
  });

  it('says what it expected and what it found', async () => {
    expect((await rejectFixture(adapter, 'unknown-format.dat'))?.message).toMatch(
      /^expected taxgavel-fixed records \('D' lines of 316 characters, 'L' of 80, a 'T' trailer of 16\) but line 1 is "\\"Cert #\\",/,
    );
    expect((await rejectFixture(adapter, 'wrong-county-trailer.dat'))?.message).toBe(
      'taxgavel-fixed trailer names county "16" (Broward, revenue county 16) but the job is for Miami-Dade (miami-dade), revenue county 23',
    );
    expect(await rejection(adapter, fromText(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0])))).toMatchObject({
      code: 'unknown_format',
    });
  });
});

describe('taxgavel-fixed: round trip', () => {
  it('gives back the records it was given, long legals split into L records', async () => {
    const { records, written, rebuilt, text } = await roundTrip(writer, adapter, 'taxgavel');
    expect(written).toBe(records.length);
    expect(text.endsWith('T232024000000006\n')).toBe(true);
    for (const line of text.split('\n').slice(0, -1)) expect([316, 80, 16]).toContain(line.length);
    expect(rebuilt).toEqual(records.map((record) => ({ ok: true, record })));
  });

  it('refuses to cut a value that does not fit its columns', async () => {
    const [r] = sampleRecords('taxgavel');
    const long = { ...r!, owner_name: 'X'.repeat(61) };
    await expect(writer.write([long], new (await import('node:stream')).PassThrough(), ctx)).rejects.toThrow(
      /owner "X+" does not fit 60 characters/,
    );
  });
});
