import { z } from 'zod';
import { type CertificateSaleRecord, SALE_STATUSES } from './records.ts';
import { saleStatus } from './sale-status.ts';

/**
 * The certificate sale of spec 2.3, exactly its fields: one annual sale of one county.
 * In the domain, beside its mapper, because the ingest and the sale-status job render a
 * sale exactly as the API does when they record its events; the route
 * re-exports both.
 */
export const SaleRow = z.object({
  id: z.string().describe('Sale id, form csale_<id>.'),
  county_slug: z.string().describe('Lowercase county slug, e.g. miami-dade.'),
  county_name: z.string().describe('County display name.'),
  tax_year: z.number().int().describe('Tax year whose certificates were sold.'),
  sale_date: z.iso.date().describe('First day of the sale, YYYY-MM-DD.'),
  vendor: z.string().describe('Sale platform code.'),
  sale_url: z
    .string()
    .nullable()
    .describe('Portal URL of the sale; null where the county sells on its own site and we know no URL we can stand behind.'),
  certificates_offered: z.number().int().describe('Certificates offered at the sale.'),
  certificates_sold: z.number().int().describe('Certificates a bidder bought.'),
  face_value_offered: z.number().describe('Face value of the certificates offered, in US dollars.'),
  face_value_sold: z.number().describe('Face value of the certificates sold, in US dollars.'),
  average_bid_rate: z.number().describe('Average winning bid rate of the sold certificates, percent.'),
  struck_to_county: z.number().int().describe('Certificates no bidder took (struck to the county).'),
  status: z
    .enum(SALE_STATUSES)
    .describe(
      'As of the day of the request in Florida: scheduled before the first sale day, in_progress through the last, completed after.',
    ),
});
export type SaleRow = z.infer<typeof SaleRow>;

export const SALE_COLUMNS = Object.keys(SaleRow.shape);

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
