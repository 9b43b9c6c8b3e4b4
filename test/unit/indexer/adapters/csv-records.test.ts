import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type CsvRecord, csvRecords, UnclosedQuoteError } from '../../../../indexer/adapters/csv-records.ts';
import { MAX_RECORD_CHARS } from '../../../../indexer/adapters/record-limit.ts';
import { FileRejectedError } from '../../../../indexer/errors.ts';

async function all(text: string, chunkBytes: number): Promise<CsvRecord[]> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  const out: CsvRecord[] = [];
  for await (const r of csvRecords(Readable.from(chunks), ',', 'test-csv')) out.push(r);
  return out;
}

const TRICKY = [
  'a,b,c',
  '"x, ""quoted""",plain,"multi\nline\r\nvalue"',
  '',
  'é€😀,"",',
  '1,2,3',
  '"end"', // last row has no line break
].join('\r\n');

describe('csvRecords', () => {
  it('agrees with csv-parse on values, whatever the chunk size', async () => {
    const expected = parse(TRICKY, { relax_column_count: true, skip_empty_lines: true }) as string[][];
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) {
      const got = await all(TRICKY, size);
      expect(got.map((r) => r.values)).toEqual(expected);
    }
  });

  it('keeps each record raw, its start line and whether it was terminated', async () => {
    const got = await all(TRICKY, 5);
    expect(got.map((r) => [r.line, r.terminated])).toEqual([
      [1, true],
      [2, true],
      [6, true],
      [7, true],
      [8, false],
    ]);
    expect(got[1]?.raw).toBe('"x, ""quoted""",plain,"multi\nline\r\nvalue"');
  });

  it('keeps stray quotes literally and strips a BOM', async () => {
    const got = await all('\uFEFFh1,h2\n5" pipe,"a"b\n', 4);
    expect(got.map((r) => r.values)).toEqual([
      ['h1', 'h2'],
      ['5" pipe', 'ab'],
    ]);
  });

  it('throws on a quote still open at the end', async () => {
    await expect(all('a,b\n"open,\nmore', 3)).rejects.toBeInstanceOf(UnclosedQuoteError);
  });

  it('reads a lone CR as a record end outside quotes, keeps it inside, and CRLF split between chunks is one end', async () => {
    const text = 'a,b\r"x\ry",z\r\n1,2\r3,4';
    for (const size of [1, 2, 3, 5, 1 << 16]) {
      const got = await all(text, size);
      expect(got.map((r) => r.values)).toEqual([
        ['a', 'b'],
        ['x\ry', 'z'],
        ['1', '2'],
        ['3', '4'],
      ]);
      expect(got.map((r) => [r.line, r.raw, r.terminated])).toEqual([
        [1, 'a,b', true],
        [2, '"x\ry",z', true],
        [4, '1,2', true],
        [5, '3,4', false],
      ]);
    }
  });

  it('reads records that span many chunks the same as in one chunk (the scan resumes where it stopped)', async () => {
    const long = `"${'q""\n,\r\n'.repeat(300)}",after"quote,"tail"x\n`;
    const text = `h1,h2,h3\n${long}${long}plain,row,"end"`;
    const whole = await all(text, 1 << 16);
    expect(whole).toHaveLength(4);
    for (const size of [1, 2, 3, 7, 64, 1000]) expect(await all(text, size)).toEqual(whole);
  });

  it('takes a record of exactly MAX_RECORD_CHARS and rejects a longer one as line_too_long', async () => {
    const field = 'x'.repeat(MAX_RECORD_CHARS - 2);
    expect((await all(`h\n"${field}"\n`, 65536))[1]!.values[0]!.length).toBe(MAX_RECORD_CHARS - 2);
    for (const text of [`h\n"${field}x"\n`, `h\n${field}xyz`, `h\n"${'x'.repeat(3 * MAX_RECORD_CHARS)}`]) {
      const err = await all(text, 65536).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FileRejectedError);
      expect(err).toMatchObject({ code: 'line_too_long' });
      expect((err as Error).message).toMatch(/record starting at line 2 is longer than/);
    }
    // In one chunk as well as across many.
    await expect(all(`h\n${field}xyz\n`, 1 << 22)).rejects.toMatchObject({ code: 'line_too_long' });
  });
});
