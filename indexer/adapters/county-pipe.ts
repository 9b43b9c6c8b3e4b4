import type { Readable } from 'node:stream';
import { parseDollars } from '../../services/formats/money.ts';
import { COUNTY_PIPE_HEADER, COUNTY_PIPE_STATUS, COUNTY_PIPE_TRAILER } from '../../services/formats/county-pipe.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readTable } from './read-lines.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/** Reads the layout services/formats/county-pipe.ts describes (the generator's writer shares it). */
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
