import { z } from 'zod';
import { listResponse, objectResponse } from '../../envelope.ts';

/** The holder of spec 2.4, exactly its fields. */
export const HolderRow = z.object({
  id: z.string().describe('Holder id, form hld_<id>.'),
  name: z.string().describe('Holder name as the county lists it.'),
  normalized_name: z.string().describe('Lowercase name without punctuation, "&" written "and".'),
  certificate_count: z.number().int().describe('Certificates still held (not redeemed).'),
  outstanding_face_amount: z.number().describe('Face value of the certificates still held.'),
  counties: z.array(z.string()).describe('Slugs of the counties the holder holds certificates in.'),
  first_seen_tax_year: z.number().int().describe('Earliest tax year the holder appears in.'),
  last_seen_tax_year: z.number().int().describe('Latest tax year the holder appears in.'),
});
export type HolderRow = z.infer<typeof HolderRow>;

export const HOLDER_COLUMNS = Object.keys(HolderRow.shape);

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const HolderList = listResponse(HolderRow);
export const HolderResponse = objectResponse(HolderRow);
