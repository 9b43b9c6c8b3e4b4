import { z } from 'zod';

/** The lands-available record of spec 2.5, exactly its fields. */
export const LandsRow = z.object({
  id: z.string().describe('Id of the underlying certificate, form cert_<id>.'),
  certificate_number: z.string(),
  county_slug: z.string(),
  county_name: z.string(),
  parcel_id: z.string(),
  tax_year: z.number().int().describe('Tax year of the underlying certificate.'),
  status: z.literal('lands_available'),
  face_amount: z.number(),
  opening_bid: z.number().describe('Minimum the clerk accepts: back taxes, fees and the tax-deed application cost.'),
  tax_deed_application_date: z.iso.date(),
  available_since: z.iso.date().describe('When the parcel landed on the county list.'),
  owner_name: z.string(),
  site_address_full: z.string(),
  parcel_url: z.string().describe('The parcel in the companion parcel service. The parcel is sold as-is, subject to its liens.'),
});
export type LandsRow = z.infer<typeof LandsRow>;

export const LANDS_COLUMNS = Object.keys(LandsRow.shape);
