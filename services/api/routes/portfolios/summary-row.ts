import { z } from 'zod';
import { objectResponse } from '../../envelope.ts';
import { DEADLINE_KINDS, POSITION_STATUSES } from './position-row.ts';

/** The public shape of a portfolio's summary on a day (docs/portfolios-reading.md). */

const money = (what: string) => z.number().describe(`${what}, in US dollars (summed in whole cents).`);
const byKind = z
  .object(Object.fromEntries(DEADLINE_KINDS.map((k) => [k, z.number().int()])) as Record<(typeof DEADLINE_KINDS)[number], z.ZodNumber>)
  .describe('Positions whose next deadline is this kind and at most that many days from as_of (0 on the day).');

export const DEADLINE_WINDOWS = [7, 30, 90] as const;

export const PortfolioSummary = z.object({
  portfolio_id: z.string().describe('The portfolio (pf_<id>).'),
  as_of: z.string().describe('The day summarised (YYYY-MM-DD).'),
  positions: z.number().int().describe('Every position, followed holder group included.'),
  by_status: z
    .object(
      Object.fromEntries(POSITION_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof POSITION_STATUSES)[number], z.ZodNumber>,
    )
    .describe('Positions per certificate status now, zeros included; unresolved: the certificate is not in the data yet.'),
  unresolved: z.number().int().describe('Positions whose certificate is not in the data yet (certificate null).'),
  outstanding: z
    .object({
      positions: z.number().int().describe('Positions redeemable on as_of and not redeemed by then.'),
      face_amount: money('Their face'),
      payoff_as_of: money("Sum of their quotes' holder_amount on as_of"),
      interest_accrued: money("Sum of their quotes' interest_due on as_of"),
    })
    .describe('What is still owed to the holder on as_of.'),
  redeemed: z
    .object({
      positions: z.number().int().describe('Positions redeemed on or before as_of.'),
      face_amount: money('Their face'),
      interest_earned: money('Sum of their interest_earned'),
    })
    .describe('What was paid off by as_of.'),
  interest_earned_by_year: z
    .array(z.object({ year: z.number().int(), positions: z.number().int(), interest_earned: money('Interest earned that year') }))
    .describe('Redeemed positions by calendar year of redemption, oldest first.'),
  deadlines: z
    .object({ within_7_days: byKind, within_30_days: byKind, within_90_days: byKind })
    .describe('Next deadlines coming up, by kind; each window includes the shorter ones.'),
});
export type PortfolioSummary = z.infer<typeof PortfolioSummary>;

export const PortfolioSummaryResponse = objectResponse(PortfolioSummary);
