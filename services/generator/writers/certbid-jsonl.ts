import { CERTBID_STATUS, FEED_NAME } from '../../formats/certbid-jsonl.ts';
import { roundCents } from '../../formats/money.ts';
import { holderCell } from './sink.ts';
import { formatWriter } from './format-writer.ts';

/** Layout: see services/formats/certbid-jsonl.ts. Header line, one object per certificate, trailer with the count. */
export const certbidJsonlWriter = formatWriter('certbid-jsonl', (ctx) => {
  // generatedAt is informational and never parsed back; dated from the context so a seed gives the same bytes.
  const generatedAt = ctx.asOf ? `${ctx.asOf}T00:00:00.000Z` : new Date().toISOString();
  const header = { feed: FEED_NAME, version: 1, county: ctx.county.slug, taxYear: ctx.taxYear, generatedAt };
  return {
    header: `${JSON.stringify(header)}\n`,
    row: (r) => {
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
      return `${JSON.stringify(row)}\n`;
    },
    trailer: (n) => `${JSON.stringify({ trailer: true, count: n })}\n`,
  };
});
