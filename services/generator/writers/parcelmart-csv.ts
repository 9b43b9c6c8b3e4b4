import { PARCELMART_HEADER, PARCELMART_STATUS } from '../../formats/parcelmart-csv.ts';
import { formatPlain } from '../../formats/money.ts';
import { csvField, holderCell } from './sink.ts';
import { formatWriter } from './format-writer.ts';

/** Layout: see services/formats/parcelmart-csv.ts. LF, every field quoted, county by FIPS. */
const q = (v: string | null) => csvField(v ?? '', true);

export const parcelmartCsvWriter = formatWriter('parcelmart-csv', (ctx) => ({
  header: `${PARCELMART_HEADER.map((h) => q(h)).join(',')}\n`,
  row: (r) =>
    `${[
      q(ctx.county.fips),
      q(r.parcel_id),
      q(r.certificate_number),
      q(String(r.tax_year)),
      q(r.batch_number),
      q(r.sale_date),
      q(PARCELMART_STATUS[r.status] ?? r.status),
      q(String(r.struck_to_county)),
      q(String(r.interest_rate)),
      q(formatPlain(r.face_amount)),
      q(formatPlain(r.delinquent_amount)),
      q(holderCell(r, ctx.county)),
      q(r.owner_name),
      q(r.site_address_full),
      q(r.legal_description),
      q(String(r.redeemed)),
      q(r.redeemed_date),
      q(r.redemption_amount === null ? null : formatPlain(r.redemption_amount)),
      q(r.tax_deed_application_date),
    ].join(',')}\n`,
}));
