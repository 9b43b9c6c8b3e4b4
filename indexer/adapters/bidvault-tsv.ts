import type { Readable } from 'node:stream';
import { parseCents } from '../normalize/money.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readTable } from './read-lines.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/**
 * bidvault-tsv: BidVault's API export, written by a program for programs.
 * - Tab-separated, LF, one row per line, header of short snake_case names. Text
 *   never holds a raw tab or line break: \t \n \r \\ are backslash-escaped.
 * - Money in integer cents ("123456"); dates MM/DD/YYYY; rate in percent.
 * - Its own state words (Won, Paid Off, Deed Pending, ...); county_held 1/0.
 * - No redeemed flag: the state word says it (Paid Off), with redeemed_on and
 *   redeemed_cents beside it.
 * - County by slug (names are accepted too).
 * - No trailer: every line ends with LF, so a last line without one was cut off.
 */
export const BIDVAULT_HEADER = [
  'county',
  'cert_no',
  'parcel',
  'yr',
  'state',
  'face_cents',
  'tax_cents',
  'rate',
  'sold_on',
  'buyer',
  'county_held',
  'redeemed_on',
  'redeemed_cents',
  'deed_app_on',
  'owner',
  'address',
  'legal',
  'batch',
] as const;

export const BIDVAULT_STATUS: Readonly<Record<string, string>> = {
  sold: 'Won',
  redeemed: 'Paid Off',
  available: 'Open',
  advertised: 'Listed',
  lands_available: 'Land Avail',
  tax_deed_applied: 'Deed Pending',
  cancelled: 'Withdrawn',
};
const WORDS = statusWords(BIDVAULT_STATUS);

export const bidvaultTsv: FormatAdapter = {
  format: 'bidvault-tsv',

  rows(source: Readable, _ctx: ReadContext): AsyncIterable<RawRow> {
    return readTable(source, { format: 'bidvault-tsv', sep: '\t', header: BIDVAULT_HEADER, trailerPrefix: null });
  },

  toInput(row: RawRow): Adapted {
    if (row.problem !== undefined) return unreadable(row.problem);
    const f = new FieldReader(row.fields);
    const input = {
      county_ref: f.text('county'),
      certificate_number: f.text('cert_no'),
      parcel_id: f.text('parcel'),
      tax_year: f.parse('tax_year', 'yr', parseYear),
      status: f.status('state', WORDS),
      face_amount: f.parse('face_amount', 'face_cents', parseCents),
      delinquent_amount: f.parse('delinquent_amount', 'tax_cents', parseCents),
      interest_rate: f.parse('interest_rate', 'rate', parsePercent),
      sale_date: f.date('sale_date', 'sold_on', 'MM/DD/YYYY'),
      holder_name: f.text('buyer'),
      struck_to_county: f.flag('struck_to_county', 'county_held', '1', '0'),
      redeemed: null,
      redeemed_date: f.date('redeemed_date', 'redeemed_on', 'MM/DD/YYYY'),
      redemption_amount: f.parse('redemption_amount', 'redeemed_cents', parseCents),
      tax_deed_application_date: f.date('tax_deed_application_date', 'deed_app_on', 'MM/DD/YYYY'),
      owner_name: f.text('owner'),
      site_address_full: f.text('address'),
      legal_description: f.text('legal'),
      batch_number: f.text('batch'),
    };
    return { input, reasons: f.reasons };
  },
};
