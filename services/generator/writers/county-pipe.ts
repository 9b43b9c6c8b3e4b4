import { COUNTY_PIPE_HEADER, COUNTY_PIPE_STATUS, COUNTY_PIPE_TRAILER } from '../../formats/county-pipe.ts';
import { formatGrouped } from '../../formats/money.ts';
import { escapeField, holderCell } from './sink.ts';
import { formatWriter } from './format-writer.ts';

/** Layout: see services/formats/county-pipe.ts. Pipes, escaped text, county by upper-case name, EOF trailer. */
const p = (v: string | null) => (v === null ? '' : escapeField(v, '|'));

export const countyPipeWriter = formatWriter('county-pipe', (ctx) => {
  const county = p(ctx.county.name.toUpperCase());
  return {
    header: `${COUNTY_PIPE_HEADER.join('|')}\n`,
    row: (r) =>
      `${[
        county,
        p(r.certificate_number),
        String(r.tax_year),
        p(r.parcel_id),
        COUNTY_PIPE_STATUS[r.status] ?? r.status,
        formatGrouped(r.face_amount),
        formatGrouped(r.delinquent_amount),
        String(r.interest_rate),
        r.sale_date,
        p(holderCell(r, ctx.county)),
        r.struck_to_county ? 'Y' : 'N',
        r.redeemed ? 'Y' : 'N',
        r.redeemed_date ?? '',
        r.redemption_amount === null ? '' : formatGrouped(r.redemption_amount),
        r.tax_deed_application_date ?? '',
        p(r.owner_name),
        p(r.site_address_full),
        p(r.legal_description),
        p(r.batch_number),
      ].join('|')}\n`,
    trailer: (n) => `${COUNTY_PIPE_TRAILER}${n}\n`,
  };
});
