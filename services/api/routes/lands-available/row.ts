import { z } from 'zod';
import { listResponse } from '../../envelope.ts';

/** The lands-available record of spec 2.5, exactly its fields. */
export const LandsRow = z.object({
  id: z.string().describe('Id of the underlying certificate, form cert_<id>.'),
  certificate_number: z.string().describe('Number of the underlying certificate, as the county writes it.'),
  county_slug: z.string().describe('Lowercase county slug, e.g. alachua.'),
  county_name: z.string().describe('County display name.'),
  parcel_id: z.string().describe('Parcel id assigned by the county, as the county writes it.'),
  tax_year: z.number().int().describe('Tax year of the underlying certificate.'),
  status: z.literal('lands_available').describe('Always lands_available.'),
  face_amount: z.number().describe('Face value of the underlying certificate, in US dollars.'),
  opening_bid: z.number().describe('Minimum the clerk accepts: back taxes, fees and the tax-deed application cost.'),
  tax_deed_application_date: z.iso.date().describe('When the holder applied for the tax deed (YYYY-MM-DD).'),
  available_since: z.iso.date().describe('When the parcel landed on the county list.'),
  owner_name: z.string().describe('Record owner of the parcel.'),
  site_address_full: z.string().describe('Situs address of the parcel.'),
  parcel_url: z.string().describe('The parcel in the companion parcel service. The parcel is sold as-is, subject to its liens.'),
});
export type LandsRow = z.infer<typeof LandsRow>;

export const LANDS_COLUMNS = Object.keys(LandsRow.shape);

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const LandsAvailableList = listResponse(LandsRow);
