import { z } from 'zod';
import { SALE_STATUSES } from '../../../domain/records.ts';

/** The certificate sale of spec 2.3, exactly its fields: one annual sale of one county. */
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
    .describe('As of the day of the request in Florida: scheduled before the first sale day, in_progress through the last, completed after.'),
});
export type SaleRow = z.infer<typeof SaleRow>;

export const SALE_COLUMNS = Object.keys(SaleRow.shape);
