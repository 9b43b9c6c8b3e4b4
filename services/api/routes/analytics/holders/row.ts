import { z } from 'zod';
import { listResponse } from '../../../envelope.ts';

export const HolderGroupMember = z.object({
  name: z.string().describe('A holder name exactly as the counties list it.'),
  certificates: z.number().int().describe('Certificates in scope under this spelling.'),
});

/** One holder group of GET /analytics/holders. */
export const HolderGroupRow = z.object({
  group_id: z.string().describe('Stable group id, form grp_<20 hex digits>: the same family keeps it across ingests.'),
  name: z.string().describe("The group's display name: its most common spelling without series number or legal form."),
  members: z
    .array(HolderGroupMember)
    .describe(
      'Every holder-name spelling in the group with its certificate count, most certificates first; the counts add up to certificates.',
    ),
  certificates: z.number().int().describe('Certificates in scope held by the group, in any status.'),
  face_amount: z.number().describe('Face amount of those certificates, US dollars.'),
  outstanding_face_amount: z.number().describe('Face amount of those neither redeemed nor cancelled, US dollars.'),
  counties: z.array(z.string()).describe('Slugs of the counties the group holds certificates in, in scope, alphabetical.'),
  first_tax_year: z.number().int().describe('Earliest tax year of its certificates in scope.'),
  last_tax_year: z.number().int().describe('Latest tax year of its certificates in scope.'),
  median_rate: z.number().describe('Median interest rate, percent: the rate at rank ceil(n/2) in ascending order (exact).'),
  share_quarter: z.number().describe('Fraction of its certificates at exactly 0.25 percent, 4 decimals.'),
  redeemed_share: z.number().describe('Fraction of its certificates redeemed, 4 decimals.'),
  county_held: z.boolean().describe("True for a county's own certificates (struck to the county): one group per county."),
});
export type HolderGroupRow = z.infer<typeof HolderGroupRow>;

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const HolderGroupList = listResponse(HolderGroupRow);
