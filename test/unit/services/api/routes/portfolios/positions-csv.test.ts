import { describe, expect, it } from 'vitest';
import {
  type CsvReading,
  csvProblemText,
  onFileLines,
  readPositionsCsv,
} from '../../../../../../services/api/routes/portfolios/positions-csv.ts';
import type { PositionsReport } from '../../../../../../services/api/routes/portfolios/row.ts';

function ok(reading: CsvReading) {
  if (!reading.ok) throw new Error(`expected a reading, got ${csvProblemText(reading)}`);
  return reading;
}

function refused(reading: CsvReading) {
  if (reading.ok) throw new Error('expected a problem');
  return reading;
}

describe('readPositionsCsv', () => {
  it('reads the three required columns positionally, without a header, numbers typed as the write takes them', () => {
    const r = ok(readPositionsCsv('lee,2023-004512,2023\ncollier,17,2022\n'));
    expect(r.header).toBe(false);
    expect(r.positions).toEqual([
      { county: 'lee', certificate_number: '2023-004512', tax_year: 2023 },
      { county: 'collier', certificate_number: '17', tax_year: 2022 },
    ]);
    expect(r.lines).toEqual([1, 2]);
  });

  it('reads all six columns; amounts as spreadsheets write them; empty optional fields are left out', () => {
    const r = ok(readPositionsCsv('lee,1,2023,2024-06-01,"$1,850.40",bought at the sale\nlee,2,2023,,,\n'));
    expect(r.positions).toEqual([
      {
        county: 'lee',
        certificate_number: '1',
        tax_year: 2023,
        acquired_on: '2024-06-01',
        acquired_amount: 1850.4,
        note: 'bought at the sale',
      },
      { county: 'lee', certificate_number: '2', tax_year: 2023 },
    ]);
  });

  it('detects a header, takes its column order, and numbers lines as the file does', () => {
    const r = ok(readPositionsCsv('Tax Year,County,Certificate Number,Note\n2023,lee,12,x\n'));
    expect(r.header).toBe(true);
    expect(r.positions).toEqual([{ county: 'lee', certificate_number: '12', tax_year: 2023, note: 'x' }]);
    expect(r.lines).toEqual([2]);
  });

  it('strips a byte order mark and reads CRLF and CR line ends, blank lines skipped but counted', () => {
    const r = ok(readPositionsCsv('\uFEFFcounty,certificate_number,tax_year\r\n\r\nlee,1,2023\r\n,,\rcollier,2,2022\r\n'));
    expect(r.positions.map((p) => p.county)).toEqual(['lee', 'collier']);
    expect(r.lines).toEqual([3, 5]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields, and numbers a line by where it starts', () => {
    const bytes = new TextEncoder().encode('lee,1,2023,,,"a, ""b""\r\nc"\nlee,2,2023,,,é\n');
    const r = ok(readPositionsCsv(bytes));
    expect(r.positions[0]!.note).toBe('a, "b"\nc');
    expect(r.positions[1]!.note).toBe('é');
    expect(r.lines).toEqual([1, 3]);
  });

  it('leaves a year or an amount that is not a number as text, for the write to name', () => {
    const r = ok(readPositionsCsv('lee,1,twenty,,12.5.1\n'));
    expect(r.positions[0]).toEqual({ county: 'lee', certificate_number: '1', tax_year: 'twenty', acquired_amount: '12.5.1' });
  });

  it('names the line an unclosed quote opens on', () => {
    const p = refused(readPositionsCsv('lee,1,2023\nlee,"2,2023\nlee,3,2023\n'));
    expect(p.line).toBe(2);
    expect(csvProblemText(p)).toBe('line 2: a quoted field opens here and is never closed');
  });

  it('names the line of a quote in the middle of a field', () => {
    const p = refused(readPositionsCsv('lee,1,2023\nlee,12"A,2023\n'));
    expect(p.line).toBe(2);
    expect(p.message).toMatch(/quote/);
  });

  it('names the line whose column count differs, after a header or the first line', () => {
    expect(refused(readPositionsCsv('lee,1,2023\nlee,2\n'))).toEqual({
      ok: false,
      line: 2,
      message: 'has 2 fields where the first line has 3',
    });
    expect(refused(readPositionsCsv('county,certificate_number,tax_year\nlee,1,2023\n\nlee,2,2023,x\n')).line).toBe(4);
    expect(refused(readPositionsCsv('lee,1\n')).line).toBe(1);
    expect(refused(readPositionsCsv('lee,1,2023,,,,x\n')).line).toBe(1);
  });

  it('refuses a header naming an unknown column, a column twice or missing a required one', () => {
    expect(refused(readPositionsCsv('county,certificate_number,year\nlee,1,2023\n')).message).toMatch(/unknown column "year"/);
    expect(refused(readPositionsCsv('county,county,tax_year\n')).message).toMatch(/named twice/);
    expect(refused(readPositionsCsv('county,certificate_number,note\n')).message).toMatch(/no tax_year column/);
  });

  it('refuses an empty file, a header alone, a file not UTF-8 and one over the bulk body limit', () => {
    expect(refused(readPositionsCsv('\n\n')).message).toMatch(/no positions/);
    expect(refused(readPositionsCsv('county,certificate_number,tax_year\n')).message).toMatch(/only the line naming the columns/);
    expect(refused(readPositionsCsv(new Uint8Array([0x6c, 0xe9, 0x2c]))).message).toMatch(/not UTF-8/);
    expect(refused(readPositionsCsv('x'.repeat(4 * 1024 * 1024 + 1))).message).toMatch(/at most 4 MiB/);
  });

  it('takes 10,000 positions and names the 10,001st', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `lee,${i},2023`).join('\n');
    expect(ok(readPositionsCsv(`county,certificate_number,tax_year\n${body(10_000)}`)).positions).toHaveLength(10_000);
    const p = refused(readPositionsCsv(`county,certificate_number,tax_year\n${body(10_001)}`));
    expect(p.line).toBe(10_002);
    expect(p.message).toMatch(/at most 10,000 positions/);
  });
});

describe('onFileLines', () => {
  it("renumbers the write's report by the file's lines", () => {
    const report: PositionsReport = {
      portfolio_id: 'pf_1',
      created: 0,
      unresolved: 0,
      rejected: 2,
      lines: [
        { line: 1, status: 'rejected', error: { code: 'invalid', field: 'tax_year', message: 'm' } },
        { line: 2, status: 'rejected', error: { code: 'duplicate', field: 'line', message: 'm' } },
      ],
    };
    expect(onFileLines(report, [2, 5]).lines.map((l) => l.line)).toEqual([2, 5]);
  });
});
