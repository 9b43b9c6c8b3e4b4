import type { Readable } from 'node:stream';
import { type Parsed, parseDollars } from '../../services/formats/money.ts';
import { FieldReader, parseYear } from './fields.ts';
import { readCsv } from './read-csv.ts';
import { type RawRow, ROW, type RowProblem } from './types.ts';

/**
 * holders-csv: a holder list supplied whole (one row per holder), for when
 * holder data arrives from outside instead of being derived from certificates.
 * - Comma CSV with the header below, LF or CRLF; fields quoted when they hold a
 *   comma, quote or line break. A final line break is not promised, so only an
 *   unclosed quote or a short last row mark a cut-off file.
 * - outstanding_face_amount in dollars ("1234.56" or "$1,234.56").
 * - counties: county slugs separated by semicolons ("alachua;miami-dade").
 */
export const HOLDER_FORMAT = 'holders-csv';
export const HOLDER_HEADER = [
  'holder_name',
  'certificate_count',
  'outstanding_face_amount',
  'counties',
  'first_seen_tax_year',
  'last_seen_tax_year',
] as const;

/** What a row says, in canonical units, not yet checked against the rest of the record. */
export interface HolderInput {
  holder_name: string | null;
  certificate_count: number | null;
  outstanding_face_amount: number | null;
  counties: string[] | null;
  first_seen_tax_year: number | null;
  last_seen_tax_year: number | null;
}

export interface HolderAdapted {
  input: HolderInput;
  reasons: RowProblem[];
}

function parseCount(text: string): Parsed<number> {
  return /^\d{1,9}$/.test(text) ? { ok: true, value: Number(text) } : { ok: false, reason: 'is not a whole number' };
}

function parseSlugs(text: string): Parsed<string[]> {
  const slugs = text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return slugs.length > 0 ? { ok: true, value: slugs } : { ok: false, reason: 'lists no county' };
}

export function readHolderRows(source: Readable): AsyncIterable<RawRow> {
  return readCsv(source, { format: HOLDER_FORMAT, delimiter: ',', header: HOLDER_HEADER, requireFinalNewline: false });
}

export function toHolderInput(row: RawRow): HolderAdapted {
  const empty: HolderInput = {
    holder_name: null,
    certificate_count: null,
    outstanding_face_amount: null,
    counties: null,
    first_seen_tax_year: null,
    last_seen_tax_year: null,
  };
  if (row.problem !== undefined) return { input: empty, reasons: [{ field: ROW, problem: row.problem }] };
  const f = new FieldReader(row.fields);
  const input: HolderInput = {
    holder_name: f.text('holder_name'),
    certificate_count: f.parse('certificate_count', 'certificate_count', parseCount),
    outstanding_face_amount: f.parse('outstanding_face_amount', 'outstanding_face_amount', parseDollars),
    counties: f.parse('counties', 'counties', parseSlugs),
    first_seen_tax_year: f.parse('first_seen_tax_year', 'first_seen_tax_year', parseYear),
    last_seen_tax_year: f.parse('last_seen_tax_year', 'last_seen_tax_year', parseYear),
  };
  return { input, reasons: f.reasons };
}
