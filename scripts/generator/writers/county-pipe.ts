import type { Writable } from 'node:stream';
import { COUNTY_PIPE_HEADER, COUNTY_PIPE_STATUS, COUNTY_PIPE_TRAILER } from '../../../indexer/adapters/county-pipe.ts';
import type { AdapterContext } from '../../../indexer/adapters/types.ts';
import type { FormatWriter } from './format-writer.ts';
import { formatGrouped } from '../../../indexer/normalize/money.ts';
import type { CertificateRecord } from '../../../services/domain/records.ts';
import { escapeField, holderCell, Sink } from './sink.ts';

/** Layout: see indexer/adapters/county-pipe.ts. Pipes, escaped text, county by upper-case name, EOF trailer. */
const p = (v: string | null) => (v === null ? '' : escapeField(v, '|'));

export const countyPipeWriter: FormatWriter = {
  format: 'county-pipe',
  async write(
    records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>,
    out: Writable,
    ctx: AdapterContext,
  ): Promise<number> {
    const sink = new Sink(out);
    const county = p(ctx.county.name.toUpperCase());
    await sink.push(`${COUNTY_PIPE_HEADER.join('|')}\n`);
    let n = 0;
    for await (const r of records) {
      const row = [
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
      ];
      await sink.push(`${row.join('|')}\n`);
      n++;
    }
    await sink.push(`${COUNTY_PIPE_TRAILER}${n}\n`);
    await sink.flush();
    return n;
  },
};
