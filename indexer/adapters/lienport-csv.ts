import type { Readable } from 'node:stream';
import { parseDollars } from '../../services/formats/money.ts';
import { LIENPORT_HEADER, LIENPORT_STATUS } from '../../services/formats/lienport-csv.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readCsv } from './read-csv.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/** Reads the layout services/formats/lienport-csv.ts describes (the generator's writer shares it). */
const WORDS = statusWords(LIENPORT_STATUS);

export const lienportCsv: FormatAdapter = {
  format: 'lienport-csv',

  rows(source: Readable, _ctx: ReadContext): AsyncIterable<RawRow> {
    return readCsv(source, { format: 'lienport-csv', delimiter: ',', header: LIENPORT_HEADER, requireFinalNewline: true });
  },

  toInput(row: RawRow): Adapted {
    if (row.problem !== undefined) return unreadable(row.problem);
    const f = new FieldReader(row.fields);
    const input = {
      county_ref: f.text('County'),
      certificate_number: f.text('Cert #'),
      parcel_id: f.text('Parcel Number'),
      tax_year: f.parse('tax_year', 'Tax Year', parseYear),
      status: f.status('Status', WORDS),
      face_amount: f.parse('face_amount', 'Face Amount', parseDollars),
      delinquent_amount: f.parse('delinquent_amount', 'Delinquent Tax', parseDollars),
      interest_rate: f.parse('interest_rate', 'Bid Rate %', parsePercent),
      sale_date: f.date('sale_date', 'Sale Date', 'MM/DD/YYYY'),
      holder_name: f.text('Certificate Holder'),
      struck_to_county: f.flag('struck_to_county', 'Struck To County', 'Y', 'N'),
      redeemed: f.flag('redeemed', 'Redeemed', 'Y', 'N'),
      redeemed_date: f.date('redeemed_date', 'Redemption Date', 'MM/DD/YYYY'),
      redemption_amount: f.parse('redemption_amount', 'Redemption Amount', parseDollars),
      tax_deed_application_date: f.date('tax_deed_application_date', 'Tax Deed App Date', 'MM/DD/YYYY'),
      owner_name: f.text('Owner Name'),
      site_address_full: f.text('Situs Address'),
      legal_description: f.text('Legal Description'),
      batch_number: f.text('Batch #'),
    };
    return { input, reasons: f.reasons };
  },
};
