import { saleId } from '../../services/domain/ids.ts';
import { roundCents } from '../../services/formats/money.ts';
import type { CertificateSaleRecord } from '../../services/domain/records.ts';
import { saleStatus } from '../../services/domain/sale-status.ts';

export interface SaleAggregations {
  total: number;
  face_offered: { value: number | null };
  first_sale: { value: number | null };
  last_sale: { value: number | null };
  struck: { doc_count: number };
  sold: { doc_count: number; face: { value: number | null }; rate: { value: number | null } };
}

export interface SaleContext {
  countySlug: string;
  countyName: string;
  taxYear: number;
  vendor: string;
  saleUrl: string | null;
  /** YYYY-MM-DD in the county's calendar; the status is derived against it. */
  today: string;
  updatedAt: string;
}

const day = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

/** Returns null when the county-year has no certificates: there is no sale to describe. */
export function mapSale(aggs: SaleAggregations, ctx: SaleContext): CertificateSaleRecord | null {
  if (aggs.total === 0 || aggs.first_sale.value === null || aggs.last_sale.value === null) return null;
  const firstDay = day(aggs.first_sale.value);
  const lastDay = day(aggs.last_sale.value);
  return {
    id: saleId(ctx.countySlug, ctx.taxYear),
    county_slug: ctx.countySlug,
    county_name: ctx.countyName,
    tax_year: ctx.taxYear,
    sale_date: firstDay,
    last_sale_date: lastDay,
    vendor: ctx.vendor,
    sale_url: ctx.saleUrl,
    certificates_offered: aggs.total,
    certificates_sold: aggs.sold.doc_count,
    face_value_offered: roundCents(aggs.face_offered.value ?? 0),
    face_value_sold: roundCents(aggs.sold.face.value ?? 0),
    average_bid_rate: aggs.sold.doc_count === 0 ? 0 : Math.round((aggs.sold.rate.value ?? 0) * 100) / 100,
    struck_to_county: aggs.struck.doc_count,
    status: saleStatus(firstDay, lastDay, ctx.today),
    updated_at: ctx.updatedAt,
  };
}
