import { z } from 'zod';
import { calendarDate, countySlug, format, limit, multi, offset, rangeOrder, taxYear, text } from '../../params/common.ts';

/** Sort values of spec 4.7 plus the machine description's; face_desc and certificates_desc use the offered figures. */
export const SALE_SORTS = ['sale_date_desc', 'sale_date_asc', 'year_newest', 'year_oldest', 'face_desc', 'certificates_desc'] as const;
export type SaleSort = (typeof SALE_SORTS)[number];

/** GET /certificate-sales/search (spec 4.7). */
export const SalesSearchParams = z
  .strictObject({
    county: multi(countySlug)
      .optional()
      .describe('County slug(s), e.g. miami-dade; repeat the parameter or separate with commas to match any of them.'),
    tax_year: multi(taxYear, 40).optional().describe('Tax year(s) of the sale, e.g. 2024; several match any of them.'),
    vendor: text(80)
      .optional()
      .describe('Sale platform code, matched as a whole string ignoring case (an unknown vendor matches nothing).'),
    sale_after: calendarDate.optional().describe('Only sales whose first sale day (sale_date) is on or after this date, YYYY-MM-DD.'),
    sale_before: calendarDate.optional().describe('Only sales whose first sale day (sale_date) is on or before this date, YYYY-MM-DD.'),
    sort: z
      .enum(SALE_SORTS, `must be one of ${SALE_SORTS.join(', ')}`)
      .optional()
      .describe(
        'Order: sale_date_desc (default, newest sale first), sale_date_asc, year_newest / year_oldest (tax year), ' +
          'face_desc (face value offered), certificates_desc (certificates offered). Ties break on the sale id.',
      ),
    limit: limit(25),
    offset,
    format,
  })
  .superRefine(rangeOrder([['sale_after', 'sale_before']]));
export type SalesSearchParams = z.infer<typeof SalesSearchParams>;
