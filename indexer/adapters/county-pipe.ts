import type { Readable } from 'node:stream';
import { parseDollars } from '../normalize/money.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readTable } from './read-lines.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/**
 * county-pipe: the tax collectors' own certificate file (also LienExchange and
 * manual uploads, which copy it): the layout of the county tax systems' report.
 * - Pipe-delimited, LF, one row per line, upper-case header; text never holds a
 *   raw pipe or line break: \| \n \r \\ are backslash-escaped.
 * - Money "1,234.56" (no $); dates YYYY-MM-DD; rate in percent; flags Y/N.
 * - Three-letter status codes of the collector's system (ISS issued, RED, TDA,
 *   ADV, ...); county by upper-case name.
 * - Last line "EOF|<row count>": a missing trailer or a wrong count means the
 *   file was cut off.
 */
export const COUNTY_PIPE_HEADER = [
  'COUNTY',
  'CERT_NO',
  'TAX_YR',
  'PARCEL_ID',
  'STAT',
  'FACE_AMT',
  'DELQ_AMT',
  'INT_RATE',
  'SALE_DT',
  'CERT_HOLDER',
  'CNTY_HELD',
  'REDEEMED',
  'REDEEM_DT',
  'REDEEM_AMT',
  'TDA_DT',
  'OWNER',
  'SITUS',
  'LEGAL',
  'BATCH',
] as const;

export const COUNTY_PIPE_STATUS: Readonly<Record<string, string>> = {
  sold: 'ISS',
  redeemed: 'RED',
  available: 'AVL',
  advertised: 'ADV',
  lands_available: 'LAV',
  tax_deed_applied: 'TDA',
  cancelled: 'CAN',
};
export const COUNTY_PIPE_TRAILER = 'EOF|';
const WORDS = statusWords(COUNTY_PIPE_STATUS);

export const countyPipe: FormatAdapter = {
  format: 'county-pipe',

  rows(source: Readable, _ctx: ReadContext): AsyncIterable<RawRow> {
    return readTable(source, {
      format: 'county-pipe',
      sep: '|',
      header: COUNTY_PIPE_HEADER,
      trailerPrefix: COUNTY_PIPE_TRAILER,
    });
  },

  toInput(row: RawRow): Adapted {
    if (row.problem !== undefined) return unreadable(row.problem);
    const f = new FieldReader(row.fields);
    const input = {
      county_ref: f.text('COUNTY'),
      certificate_number: f.text('CERT_NO'),
      parcel_id: f.text('PARCEL_ID'),
      tax_year: f.parse('tax_year', 'TAX_YR', parseYear),
      status: f.status('STAT', WORDS),
      face_amount: f.parse('face_amount', 'FACE_AMT', parseDollars),
      delinquent_amount: f.parse('delinquent_amount', 'DELQ_AMT', parseDollars),
      interest_rate: f.parse('interest_rate', 'INT_RATE', parsePercent),
      sale_date: f.date('sale_date', 'SALE_DT', 'YYYY-MM-DD'),
      holder_name: f.text('CERT_HOLDER'),
      struck_to_county: f.flag('struck_to_county', 'CNTY_HELD', 'Y', 'N'),
      redeemed: f.flag('redeemed', 'REDEEMED', 'Y', 'N'),
      redeemed_date: f.date('redeemed_date', 'REDEEM_DT', 'YYYY-MM-DD'),
      redemption_amount: f.parse('redemption_amount', 'REDEEM_AMT', parseDollars),
      tax_deed_application_date: f.date('tax_deed_application_date', 'TDA_DT', 'YYYY-MM-DD'),
      owner_name: f.text('OWNER'),
      site_address_full: f.text('SITUS'),
      legal_description: f.text('LEGAL'),
      batch_number: f.text('BATCH'),
    };
    return { input, reasons: f.reasons };
  },
};
