import type { Readable } from 'node:stream';
import { parseDollars } from '../../services/formats/money.ts';
import { FieldReader, parseYear } from './fields.ts';
import { readCsv } from './read-csv.ts';
import { type RawRow, ROW, type RowProblem } from './types.ts';

/**
 * lands-available-csv: a county clerk's "lands available for taxes" list, one
 * county per file (the county comes from the job, the file does not name it).
 * - Comma CSV with the header below, LF or CRLF, fields quoted when they hold a
 *   comma, quote or line break. Clerks' exports do not promise a final line
 *   break, so only an unclosed quote or a short last row mark a cut-off file.
 * - Money "$1,234.56"; dates MM/DD/YYYY.
 * - Tax Year is the tax year of the underlying certificate; a list mixes years.
 */
export const LANDS_FORMAT = 'lands-available-csv';
export const LANDS_HEADER = [
  'Certificate Number',
  'Parcel ID',
  'Tax Year',
  'Face Amount',
  'Opening Bid',
  'Tax Deed Application Date',
  'Date Placed on List',
  'Owner',
  'Situs Address',
] as const;

/** What a row says, in canonical units (dollars, YYYY-MM-DD), not yet checked against each other. */
export interface LandsInput {
  certificate_number: string | null;
  parcel_id: string | null;
  tax_year: number | null;
  face_amount: number | null;
  opening_bid: number | null;
  tax_deed_application_date: string | null;
  available_since: string | null;
  owner_name: string | null;
  site_address_full: string | null;
}

export interface LandsAdapted {
  input: LandsInput;
  reasons: RowProblem[];
}

const EMPTY: LandsInput = {
  certificate_number: null,
  parcel_id: null,
  tax_year: null,
  face_amount: null,
  opening_bid: null,
  tax_deed_application_date: null,
  available_since: null,
  owner_name: null,
  site_address_full: null,
};

export function readLandsRows(source: Readable): AsyncIterable<RawRow> {
  return readCsv(source, { format: LANDS_FORMAT, delimiter: ',', header: LANDS_HEADER, requireFinalNewline: false });
}

export function toLandsInput(row: RawRow): LandsAdapted {
  if (row.problem !== undefined) return { input: { ...EMPTY }, reasons: [{ field: ROW, problem: row.problem }] };
  const f = new FieldReader(row.fields);
  const input: LandsInput = {
    certificate_number: f.text('Certificate Number'),
    parcel_id: f.text('Parcel ID'),
    tax_year: f.parse('tax_year', 'Tax Year', parseYear),
    face_amount: f.parse('face_amount', 'Face Amount', parseDollars),
    opening_bid: f.parse('opening_bid', 'Opening Bid', parseDollars),
    tax_deed_application_date: f.date('tax_deed_application_date', 'Tax Deed Application Date', 'MM/DD/YYYY'),
    available_since: f.date('available_since', 'Date Placed on List', 'MM/DD/YYYY'),
    owner_name: f.text('Owner'),
    site_address_full: f.text('Situs Address'),
  };
  return { input, reasons: f.reasons };
}
