import type { CertificateSaleRecord } from '../../../domain/records.ts';
import { saleStatus } from '../../../domain/sale-status.ts';
import type { SaleRow } from './row.ts';

/**
 * A sales document as stored. Documents written before the sales mapping kept the
 * last sale day (mapping v1) have none; their sale is taken as one day long.
 */
export type SaleDocument = Omit<CertificateSaleRecord, 'last_sale_date' | 'status' | 'updated_at'> & {
  last_sale_date?: string;
};

/** The stored fields a row needs (the stored status is the one seen at ingest and is not read). */
export const SALE_SOURCE = [
  'id',
  'county_slug',
  'county_name',
  'tax_year',
  'sale_date',
  'last_sale_date',
  'vendor',
  'sale_url',
  'certificates_offered',
  'certificates_sold',
  'face_value_offered',
  'face_value_sold',
  'average_bid_rate',
  'struck_to_county',
] as const;

/** The one sale mapper: exactly the fields of spec 2.3, status as of `today` (Florida's calendar day). */
export function mapSaleRow(doc: SaleDocument, today: string): SaleRow {
  return {
    id: doc.id,
    county_slug: doc.county_slug,
    county_name: doc.county_name,
    tax_year: doc.tax_year,
    sale_date: doc.sale_date,
    vendor: doc.vendor,
    sale_url: doc.sale_url,
    certificates_offered: doc.certificates_offered,
    certificates_sold: doc.certificates_sold,
    face_value_offered: doc.face_value_offered,
    face_value_sold: doc.face_value_sold,
    average_bid_rate: doc.average_bid_rate,
    struck_to_county: doc.struck_to_county,
    status: saleStatus(doc.sale_date, doc.last_sale_date ?? doc.sale_date, today),
  };
}
