import type { Readable } from 'node:stream';
import { parseDollars } from '../normalize/money.ts';
import { FieldReader, parsePercent, parseYear, statusWords, unreadable } from './fields.ts';
import { readCsv } from './read-csv.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/**
 * lienport-csv: LienPort's "Certificate Export" download, made for Excel users.
 * - Comma CSV, CRLF, header row with the quoted display names below; a field is
 *   quoted only when it holds a comma, quote or line break (legal descriptions may
 *   span lines). Every row ends with CRLF, so a file without a final line break
 *   was cut off.
 * - Money "$1,234.56"; dates MM/DD/YYYY; rate in percent ("0.25"); flags Y/N.
 * - County by display name on every row ("Miami-Dade").
 * - Holder blank when the county holds the certificate; Legal Description and
 *   Batch # may be blank.
 */
export const LIENPORT_HEADER = [
  'Cert #',
  'Tax Year',
  'County',
  'Parcel Number',
  'Status',
  'Face Amount',
  'Delinquent Tax',
  'Bid Rate %',
  'Sale Date',
  'Certificate Holder',
  'Struck To County',
  'Redeemed',
  'Redemption Date',
  'Redemption Amount',
  'Tax Deed App Date',
  'Owner Name',
  'Situs Address',
  'Legal Description',
  'Batch #',
] as const;

export const LIENPORT_STATUS: Readonly<Record<string, string>> = {
  sold: 'SOLD',
  redeemed: 'REDEEMED',
  available: 'OPEN',
  advertised: 'ADVERTISED',
  lands_available: 'LAND AVAILABLE',
  tax_deed_applied: 'TDA FILED',
  cancelled: 'CANCELLED',
};
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
