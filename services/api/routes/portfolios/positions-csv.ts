import { parse } from 'csv-parse/sync';
import { BULK_WRITE_BODY_LIMIT, bodySize } from '../../writes/body.ts';
import { MAX_POSITION_LINES } from './params.ts';
import type { PositionsReport } from './row.ts';

/**
 * A CSV file of positions, as the account page uploads it and `taxcert portfolios import` reads
 * it, turned into the lines of POST /portfolios/{id}/positions. Only the file's shape is judged
 * here (encoding, quotes, columns, size); every field is left to the write's own line check
 * (position-line.ts), so a bad county or year is reported on its line in the write's words.
 *
 * Layout: `county,certificate_number,tax_year[,acquired_on,acquired_amount,note]`, comma
 * separated, fields quoted with `"` when they hold commas, quotes or line breaks. A first line
 * naming the columns is optional; with it, the columns may come in any order. Blank lines and
 * lines of empty fields are skipped. Pure: text in, lines out.
 */

export const CSV_COLUMNS = ['county', 'certificate_number', 'tax_year', 'acquired_on', 'acquired_amount', 'note'] as const;
type Column = (typeof CSV_COLUMNS)[number];
const REQUIRED = 3;

/** The file's positions, each with the line of the file it starts on. */
export interface CsvPositions {
  ok: true;
  positions: Record<string, unknown>[];
  /** lines[i] is the file's line (1 = first) that positions[i] starts on. */
  lines: number[];
  header: boolean;
}

/** Why the file as a whole was not read; `line` names the line at fault when one is. */
export interface CsvProblem {
  ok: false;
  line: number | null;
  message: string;
}

export type CsvReading = CsvPositions | CsvProblem;

const problem = (line: number | null, message: string): CsvProblem => ({ ok: false, line, message });

/** "line 12: ..." or the message alone: how the page and the CLI say a problem. */
export function csvProblemText(p: CsvProblem): string {
  return p.line === null ? p.message : `line ${p.line}: ${p.message}`;
}

const isColumn = (name: string): name is Column => (CSV_COLUMNS as readonly string[]).includes(name);
const columnName = (field: string) =>
  field
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * The line an unclosed quote opened on: csv-parse names the file's last line, where it gave up.
 * Quotes toggle; a doubled quote inside a quoted field toggles twice, so it stays open.
 */
function openingQuoteLine(text: string): number {
  let line = 1;
  let opened = 1;
  let quoted = false;
  for (const ch of text) {
    if (ch === '\n') line++;
    else if (ch === '"') {
      quoted = !quoted;
      if (quoted) opened = line;
    }
  }
  return opened;
}

/** A year and an amount as the write's JSON takes them; anything else stays text, for the write to name. */
function typed(column: Column, value: string): unknown {
  if (column === 'tax_year' && /^\d{1,6}$/.test(value)) return Number(value);
  if (column === 'acquired_amount') {
    // Spreadsheets write 1,850.40 or $1850.40; both are the same number of dollars.
    const plain = value.replace(/^\$/, '').replace(/(\d),(?=\d{3}(\D|$))/g, '$1');
    if (/^\d+(\.\d+)?$/.test(plain)) return Number(plain);
  }
  return value;
}

export function readPositionsCsv(file: Uint8Array | string): CsvReading {
  const size = typeof file === 'string' ? Buffer.byteLength(file) : file.byteLength;
  if (size > BULK_WRITE_BODY_LIMIT)
    return problem(null, `the file is ${bodySize(size)}; a file of positions takes at most ${bodySize(BULK_WRITE_BODY_LIMIT)}: split it`);
  let text: string;
  try {
    text = typeof file === 'string' ? file : new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return problem(null, 'the file is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8"');
  }
  // One line break whatever the file's system wrote, so csv-parse counts lines as an editor shows them.
  text = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      info: true,
      record_delimiter: '\n',
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const at = (err as { lines?: unknown }).lines;
    if (code === 'CSV_QUOTE_NOT_CLOSED') return problem(openingQuoteLine(text), 'a quoted field opens here and is never closed');
    if (code === 'INVALID_OPENING_QUOTE' || code === 'CSV_INVALID_CLOSING_QUOTE')
      return problem(
        typeof at === 'number' ? at : null,
        'a quote inside a field: quote the whole field and double the quotes in it ("12 ""A""")',
      );
    if (typeof code === 'string' && typeof at === 'number') return problem(at, 'this line is not CSV');
    throw err;
  }

  // A record's first line: csv-parse gives its last, which is further down when a quoted field holds line breaks.
  const startOf = (r: { record: string[]; info: { lines: number } }) =>
    r.info.lines - r.record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);

  const first = records[0];
  if (first === undefined) return problem(null, 'the file has no positions');
  const names = first.record.map(columnName);
  // Two column names make a header: a county slug, number or year is never one, a note rarely.
  const header = names.filter(isColumn).length >= 2;
  let columns: Column[];
  if (header) {
    const unknown = names.find((n) => !isColumn(n));
    if (unknown !== undefined)
      return problem(startOf(first), `unknown column ${JSON.stringify(unknown)}; the columns are ${CSV_COLUMNS.join(', ')}`);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) return problem(startOf(first), `the column ${twice} is named twice`);
    const missing = CSV_COLUMNS.slice(0, REQUIRED).find((c) => !names.includes(c));
    if (missing !== undefined) return problem(startOf(first), `no ${missing} column; the first line names the columns`);
    columns = names as Column[];
  } else {
    if (first.record.length < REQUIRED || first.record.length > CSV_COLUMNS.length)
      return problem(
        startOf(first),
        `has ${first.record.length} fields; a line is ${CSV_COLUMNS.slice(0, REQUIRED).join(',')}[,${CSV_COLUMNS.slice(REQUIRED).join(',')}]`,
      );
    columns = CSV_COLUMNS.slice(0, first.record.length);
  }

  const data = header ? records.slice(1) : records;
  if (data.length === 0) return problem(null, 'the file has no positions, only the line naming the columns');
  if (data.length > MAX_POSITION_LINES)
    return problem(
      startOf(data[MAX_POSITION_LINES]!),
      `a file takes at most ${MAX_POSITION_LINES.toLocaleString('en-US')} positions and this is one more: split the file`,
    );

  const positions: Record<string, unknown>[] = [];
  const lines: number[] = [];
  for (const r of data) {
    const line = startOf(r);
    if (r.record.length !== columns.length)
      return problem(
        line,
        `has ${r.record.length} fields where ${header ? 'the first line names' : 'the first line has'} ${columns.length}`,
      );
    const position: Record<string, unknown> = {};
    // An empty field is a field not given: the write then says which required one is missing.
    columns.forEach((c, i) => {
      const value = r.record[i]!;
      if (value !== '') position[c] = typed(c, value);
    });
    positions.push(position);
    lines.push(line);
  }
  return { ok: true, positions, lines, header };
}

/** The write's report with each line numbered as in the file instead of by its place in the list. */
export function onFileLines(report: PositionsReport, lines: readonly number[]): PositionsReport {
  return { ...report, lines: report.lines.map((l) => ({ ...l, line: lines[l.line - 1] ?? l.line })) };
}
