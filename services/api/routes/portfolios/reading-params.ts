import { z } from 'zod';
import { calendarDate, countySlug, format, limit, multi, offset } from '../../params/common.ts';
import { PortfolioPath } from './params.ts';
import { POSITION_STATUSES } from './position-row.ts';

/**
 * Parameters of the portfolio reads (docs/portfolios-reading.md); the same schemas are the MCP tools' input.
 * The path is the portfolio routes' own (params.ts).
 */

const asOf = calendarDate.optional().describe('The day to answer for (YYYY-MM-DD); default today in Florida (America/New_York).');

export const POSITION_SORTS = ['next_deadline_asc', 'payoff_desc', 'face_desc', 'acquired_desc'] as const;
export type PositionSort = (typeof POSITION_SORTS)[number];

export const PositionsParams = z.strictObject({
  as_of: asOf,
  status: multi(z.enum(POSITION_STATUSES, `must be one of ${POSITION_STATUSES.join(', ')}`), POSITION_STATUSES.length)
    .optional()
    .describe(
      'Certificate status(es) now: available, advertised, sold, redeemed, lands_available, tax_deed_applied, cancelled, or unresolved (not in the data yet).',
    ),
  county: multi(countySlug)
    .optional()
    .describe('County slug(s) of the positions, e.g. lee; repeat or separate with commas; an unknown slug is a 400.'),
  deadline_before: calendarDate.optional().describe('Only positions whose next deadline falls before this day (YYYY-MM-DD).'),
  sort: z
    .enum(POSITION_SORTS, `must be one of ${POSITION_SORTS.join(', ')}`)
    .default('next_deadline_asc')
    .describe(
      'Order: next_deadline_asc (default; soonest deadline first), payoff_desc (holder_amount on as_of), face_desc, acquired_desc (acquired_on, newest first). Positions without the value come last; ties by position id.',
    ),
  limit: limit(100),
  offset,
  format,
});
export type PositionsParams = z.infer<typeof PositionsParams>;

export const SummaryParams = z.strictObject({ as_of: asOf });
export type SummaryParams = z.infer<typeof SummaryParams>;

/** The MCP tools take the id and the parameters in one object. */
export const PositionsOfParams = z.strictObject({ ...PortfolioPath.shape, ...PositionsParams.omit({ format: true }).shape });
export type PositionsOfParams = z.infer<typeof PositionsOfParams>;
export const SummaryOfParams = z.strictObject({ ...PortfolioPath.shape, ...SummaryParams.shape });
export type SummaryOfParams = z.infer<typeof SummaryOfParams>;
