import type { Writable } from 'node:stream';
import { LIENPORT_HEADER, LIENPORT_STATUS } from '../../../indexer/adapters/lienport-csv.ts';
import type { AdapterContext } from '../../../indexer/adapters/types.ts';
import type { FormatWriter } from './format-writer.ts';
import { formatDate } from '../../../indexer/normalize/dates.ts';
import { formatUsd } from '../../../indexer/normalize/money.ts';
import type { CertificateRecord } from '../../../services/domain/records.ts';
import { csvField, holderCell, Sink } from './sink.ts';

/** Layout: see indexer/adapters/lienport-csv.ts. CRLF, quoted only where needed, county by name. */
const us = (d: string | null) => (d === null ? '' : formatDate(d, 'MM/DD/YYYY'));

export const lienportCsvWriter: FormatWriter = {
  format: 'lienport-csv',
  async write(
    records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>,
    out: Writable,
    ctx: AdapterContext,
  ): Promise<number> {
    const sink = new Sink(out);
    await sink.push(`${LIENPORT_HEADER.map((h) => csvField(h, true)).join(',')}\r\n`);
    let n = 0;
    for await (const r of records) {
      const row = [
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
      ];
      await sink.push(`${row.join(',')}\r\n`);
      n++;
    }
    await sink.flush();
    return n;
  },
};
