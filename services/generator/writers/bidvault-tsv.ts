import { BIDVAULT_HEADER, BIDVAULT_STATUS } from '../../formats/bidvault-tsv.ts';
import { formatDate } from '../../formats/dates.ts';
import { formatCents } from '../../formats/money.ts';
import { escapeField, holderCell } from './sink.ts';
import { formatWriter } from './format-writer.ts';

/** Layout: see services/formats/bidvault-tsv.ts. Tabs, escaped text, cents, county by slug. */
const us = (d: string | null) => (d === null ? '' : formatDate(d, 'MM/DD/YYYY'));
const t = (v: string | null) => (v === null ? '' : escapeField(v, '\t'));

export const bidvaultTsvWriter = formatWriter('bidvault-tsv', (ctx) => ({
  header: `${BIDVAULT_HEADER.join('\t')}\n`,
  row: (r) =>
    `${[
      ctx.county.slug,
      t(r.certificate_number),
      t(r.parcel_id),
      String(r.tax_year),
      BIDVAULT_STATUS[r.status] ?? r.status,
      formatCents(r.face_amount),
      formatCents(r.delinquent_amount),
      String(r.interest_rate),
      us(r.sale_date),
      t(holderCell(r, ctx.county)),
      r.struck_to_county ? '1' : '0',
      us(r.redeemed_date),
      r.redemption_amount === null ? '' : formatCents(r.redemption_amount),
      us(r.tax_deed_application_date),
      t(r.owner_name),
      t(r.site_address_full),
      t(r.legal_description),
      t(r.batch_number),
    ].join('\t')}\n`,
}));
