import { z } from 'zod';
import { countySlug, format, limit, money, multi, offset, rangeOrder, taxYear } from '../../params/common.ts';

export const LANDS_SORTS = ['opening_bid_asc', 'opening_bid_desc', 'available_since_desc'] as const;
export type LandsSort = (typeof LANDS_SORTS)[number];

/** GET /lands-available/search (spec 4.9). */
export const LandsSearchParams = z
  .strictObject({
    county: multi(countySlug)
      .optional()
      .describe('County slug(s), e.g. alachua; repeat the parameter or separate with commas to match any of them.'),
    tax_year: multi(taxYear, 40).optional().describe('Tax year(s) of the underlying certificate; several match any of them.'),
    min_opening_bid: money.optional().describe('Only records whose opening bid is at least this many dollars (inclusive).'),
    max_opening_bid: money.optional().describe('Only records whose opening bid is at most this many dollars (inclusive).'),
    sort: z
      .enum(LANDS_SORTS, `must be one of ${LANDS_SORTS.join(', ')}`)
      .optional()
      .describe(
        'Order: available_since_desc (default, newest on the list first), opening_bid_asc, opening_bid_desc. ' +
          'Ties break on the record id.',
      ),
    limit: limit(25),
    offset,
    format,
  })
  .superRefine(rangeOrder([['min_opening_bid', 'max_opening_bid']]));
export type LandsSearchParams = z.infer<typeof LandsSearchParams>;
