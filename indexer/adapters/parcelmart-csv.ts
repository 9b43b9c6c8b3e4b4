import type { Readable } from 'node:stream';
import { parseDollars } from '../../services/formats/money.ts';
import { PARCELMART_HEADER, PARCELMART_STATUS } from '../../services/formats/parcelmart-csv.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readCsv } from './read-csv.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/** Reads the layout services/formats/parcelmart-csv.ts describes (the generator's writer shares it). */
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
