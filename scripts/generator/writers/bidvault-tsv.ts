import type { Writable } from 'node:stream';
import { BIDVAULT_HEADER, BIDVAULT_STATUS } from '../../../indexer/adapters/bidvault-tsv.ts';
import type { AdapterContext } from '../../../indexer/adapters/types.ts';
import type { FormatWriter } from './format-writer.ts';
import { formatDate } from '../../../indexer/normalize/dates.ts';
import { formatCents } from '../../../indexer/normalize/money.ts';
import type { CertificateRecord } from '../../../services/domain/records.ts';
import { escapeField, holderCell, Sink } from './sink.ts';

/** Layout: see indexer/adapters/bidvault-tsv.ts. Tabs, escaped text, cents, county by slug. */
const us = (d: string | null) => (d === null ? '' : formatDate(d, 'MM/DD/YYYY'));
const t = (v: string | null) => (v === null ? '' : escapeField(v, '\t'));

export const bidvaultTsvWriter: FormatWriter = {
  format: 'bidvault-tsv',
  async write(
    records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>,
    out: Writable,
    ctx: AdapterContext,
  ): Promise<number> {
    const sink = new Sink(out);
    await sink.push(`${BIDVAULT_HEADER.join('\t')}\n`);
    let n = 0;
    for await (const r of records) {
      const row = [
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
      ];
      await sink.push(`${row.join('\t')}\n`);
      n++;
    }
    await sink.flush();
    return n;
  },
};
