import type { Writable } from 'node:stream';
import { CERTBID_STATUS, FEED_NAME } from '../../../indexer/adapters/certbid-jsonl.ts';
import type { AdapterContext } from '../../../indexer/adapters/types.ts';
import type { FormatWriter } from './format-writer.ts';
import { roundCents } from '../../../indexer/normalize/money.ts';
import type { CertificateRecord } from '../../../services/domain/records.ts';
import { holderCell, Sink } from './sink.ts';

/** Layout: see indexer/adapters/certbid-jsonl.ts. Header line, one object per certificate, trailer with the count. */
export const certbidJsonlWriter: FormatWriter = {
  format: 'certbid-jsonl',
  async write(
    records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>,
    out: Writable,
    ctx: AdapterContext,
  ): Promise<number> {
    const sink = new Sink(out);
    // generatedAt is informational and never parsed back; dated from the context so a seed gives the same bytes.
    const generatedAt = ctx.asOf ? `${ctx.asOf}T00:00:00.000Z` : new Date().toISOString();
    const header = { feed: FEED_NAME, version: 1, county: ctx.county.slug, taxYear: ctx.taxYear, generatedAt };
    await sink.push(`${JSON.stringify(header)}\n`);
    let n = 0;
    for await (const r of records) {
      const holder = holderCell(r, ctx.county);
      const row = {
        certificateNumber: r.certificate_number,
        parcelId: r.parcel_id,
        taxYear: r.tax_year,
        status: CERTBID_STATUS[r.status] ?? r.status,
        faceAmount: roundCents(r.face_amount),
        delinquentAmount: roundCents(r.delinquent_amount),
        interestRate: r.interest_rate,
        saleDate: r.sale_date,
        holderName: holder === '' ? null : holder,
        struckToCounty: r.struck_to_county,
        redemption: r.redeemed ? { date: r.redeemed_date, amount: r.redemption_amount } : null,
        taxDeedApplicationDate: r.tax_deed_application_date,
        ownerName: r.owner_name,
        siteAddress: r.site_address_full,
        legalDescription: r.legal_description,
        batchNumber: r.batch_number,
      };
      await sink.push(`${JSON.stringify(row)}\n`);
      n++;
    }
    await sink.push(`${JSON.stringify({ trailer: true, count: n })}\n`);
    await sink.flush();
    return n;
  },
};
