import type { Readable } from 'node:stream';
import { parseCents } from '../../services/formats/money.ts';
import { BIDVAULT_HEADER, BIDVAULT_STATUS } from '../../services/formats/bidvault-tsv.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readTable } from './read-lines.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/** Reads the layout services/formats/bidvault-tsv.ts describes (the generator's writer shares it). */
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
