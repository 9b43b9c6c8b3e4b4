import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type CsvRecord, csvRecords, UnclosedQuoteError } from '../../../indexer/adapters/csv-records.ts';

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
});
