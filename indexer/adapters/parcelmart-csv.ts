import type { Readable } from 'node:stream';
import { parseDollars } from '../normalize/money.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readCsv } from './read-csv.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/**
 * parcelmart-csv: ParcelMart's bulk download, a database dump rather than a
 * spreadsheet export.
 * - Comma CSV, LF, snake_case header; EVERY field is quoted, and owner names and
 *   legal descriptions carry commas, doubled quotes and line breaks (multi-line
 *   legals), so a row often spans lines.
 * - Money plain dollars "1234.56"; dates YYYY-MM-DD; bid_pct in percent;
 *   flags "true"/"false"; county by 5-digit FIPS ("12086").
 * - Truncation: a cut inside a quoted field leaves an unclosed quote; a cut
 *   between fields leaves a short last row with no line break.
 */
export const PARCELMART_HEADER = [
  'fips',
  'parcel',
  'certificate',
  'year',
  'batch',
  'sale_date',
  'status',
  'struck',
  'bid_pct',
  'face',
  'delinquent',
  'holder',
  'owner_name',
  'property_address',
  'legal_desc',
  'redeemed',
  'redeem_date',
  'redeem_amt',
  'tda_date',
] as const;

export const PARCELMART_STATUS: Readonly<Record<string, string>> = {
  sold: 'ISSUED',
  redeemed: 'REDEEMED',
  available: 'UNSOLD',
  advertised: 'ADVERTISED',
  lands_available: 'LAND_AVAIL',
  tax_deed_applied: 'DEED_APP',
  cancelled: 'VOID',
};
const WORDS = statusWords(PARCELMART_STATUS);

export const parcelmartCsv: FormatAdapter = {
  format: 'parcelmart-csv',

  rows(source: Readable, _ctx: ReadContext): AsyncIterable<RawRow> {
    return readCsv(source, {
      format: 'parcelmart-csv',
      delimiter: ',',
      header: PARCELMART_HEADER,
      requireFinalNewline: false,
    });
  },

  toInput(row: RawRow): Adapted {
    if (row.problem !== undefined) return unreadable(row.problem);
    const f = new FieldReader(row.fields);
    const input = {
      county_ref: f.text('fips'),
      certificate_number: f.text('certificate'),
      parcel_id: f.text('parcel'),
      tax_year: f.parse('tax_year', 'year', parseYear),
      status: f.status('status', WORDS),
      face_amount: f.parse('face_amount', 'face', parseDollars),
      delinquent_amount: f.parse('delinquent_amount', 'delinquent', parseDollars),
      interest_rate: f.parse('interest_rate', 'bid_pct', parsePercent),
      sale_date: f.date('sale_date', 'sale_date', 'YYYY-MM-DD'),
      holder_name: f.text('holder'),
      struck_to_county: f.flag('struck_to_county', 'struck', 'true', 'false'),
      redeemed: f.flag('redeemed', 'redeemed', 'true', 'false'),
      redeemed_date: f.date('redeemed_date', 'redeem_date', 'YYYY-MM-DD'),
      redemption_amount: f.parse('redemption_amount', 'redeem_amt', parseDollars),
      tax_deed_application_date: f.date('tax_deed_application_date', 'tda_date', 'YYYY-MM-DD'),
      owner_name: f.text('owner_name'),
      site_address_full: f.text('property_address'),
      legal_description: f.text('legal_desc'),
      batch_number: f.text('batch'),
    };
    return { input, reasons: f.reasons };
  },
};
