import type { Writable } from 'node:stream';
import { PARCELMART_HEADER, PARCELMART_STATUS } from '../../../indexer/adapters/parcelmart-csv.ts';
import type { AdapterContext } from '../../../indexer/adapters/types.ts';
import type { FormatWriter } from './format-writer.ts';
import { formatPlain } from '../../../indexer/normalize/money.ts';
import type { CertificateRecord } from '../../../services/domain/records.ts';
import { csvField, holderCell, Sink } from './sink.ts';

/** Layout: see indexer/adapters/parcelmart-csv.ts. LF, every field quoted, county by FIPS. */
const q = (v: string | null) => csvField(v ?? '', true);

export const parcelmartCsvWriter: FormatWriter = {
  format: 'parcelmart-csv',
  async write(
    records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>,
    out: Writable,
    ctx: AdapterContext,
  ): Promise<number> {
    const sink = new Sink(out);
    await sink.push(`${PARCELMART_HEADER.map((h) => q(h)).join(',')}\n`);
    let n = 0;
    for await (const r of records) {
      const row = [
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
      ];
      await sink.push(`${row.join(',')}\n`);
      n++;
    }
    await sink.flush();
    return n;
  },
};
