import { LIENPORT_HEADER, LIENPORT_STATUS } from '../../formats/lienport-csv.ts';
import { formatDate } from '../../formats/dates.ts';
import { formatUsd } from '../../formats/money.ts';
import { csvField, holderCell } from './sink.ts';
import { formatWriter } from './format-writer.ts';

/** Layout: see services/formats/lienport-csv.ts. CRLF, quoted only where needed, county by name. */
const us = (d: string | null) => (d === null ? '' : formatDate(d, 'MM/DD/YYYY'));

export const lienportCsvWriter = formatWriter('lienport-csv', (ctx) => ({
  header: `${LIENPORT_HEADER.map((h) => csvField(h, true)).join(',')}\r\n`,
  row: (r) =>
    `${[
      csvField(r.certificate_number),
      String(r.tax_year),
      csvField(ctx.county.name),
      csvField(r.parcel_id),
      LIENPORT_STATUS[r.status] ?? r.status,
      csvField(formatUsd(r.face_amount)),
      csvField(formatUsd(r.delinquent_amount)),
      String(r.interest_rate),
      us(r.sale_date),
      csvField(holderCell(r, ctx.county)),
      r.struck_to_county ? 'Y' : 'N',
      r.redeemed ? 'Y' : 'N',
      us(r.redeemed_date),
      r.redemption_amount === null ? '' : csvField(formatUsd(r.redemption_amount)),
      us(r.tax_deed_application_date),
      csvField(r.owner_name),
      csvField(r.site_address_full),
      csvField(r.legal_description ?? ''),
      csvField(r.batch_number ?? ''),
    ].join(',')}\r\n`,
}));
