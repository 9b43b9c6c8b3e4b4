import { z } from 'zod';
import { objectResponse } from '../../../envelope.ts';

/**
 * The answers of GET /analytics/redemption-curve and /analytics/expected-yield. Every figure
 * is computed from exact counts (never sampled or estimated) and rounded once, half up:
 * survival and shares of the curve to 6 decimals, yields and the won shares to 4.
 */

export const RedemptionScopeEcho = z.object({
  county: z.array(z.string()).nullable().describe('County slugs of the scope, as given; null: every county.'),
  tax_year: z.array(z.number().int()).nullable().describe('Tax years of the scope; null: every tax year.'),
  vendor: z.array(z.string()).nullable().describe('Vendors of the scope; null: every vendor.'),
  face_min: z.number().nullable().describe('Lowest face amount, US dollars, inclusive; null: no bound.'),
  face_max: z.number().nullable().describe('Highest face amount, US dollars, inclusive; null: no bound.'),
  rate_min: z.number().nullable().describe('Lowest winning rate, percent, inclusive; null: no bound.'),
  rate_max: z.number().nullable().describe('Highest winning rate, percent, inclusive; null: no bound.'),
  as_of: z.string().describe('The day the curve is drawn as of (YYYY-MM-DD): the one asked for, or today in Florida.'),
});

export const CurveMonth = z.object({
  months: z.number().int().describe('Interest months k: June of the sale year is month 1, a redemption before June is month 0.'),
  at_risk: z.number().int().describe('n_k: certificates neither redeemed nor censored before month k.'),
  redeemed: z.number().int().describe('d_k: certificates redeemed at month k.'),
  censored: z.number().int().describe('c_k: certificates not redeemed by as_of whose age as_of is month k (at risk at k).'),
  survival: z
    .number()
    .nullable()
    .describe('S(k) = product over j <= k of (1 - d_j / n_j), half up to 6 decimals; null when the cohort is empty.'),
});

export const RedeemedShare = z.object({
  months: z.number().int().describe('Interest months: 12, 24, 36, 60 or 84.'),
  share: z.number().nullable().describe('1 - S(months), half up to 6 decimals; null when the cohort is empty.'),
});

export const RedemptionCurve = z.object({
  scope: RedemptionScopeEcho,
  certificates: z
    .number()
    .int()
    .describe('The cohort: certificates in scope sold to a bidder on or before as_of (the clearing-rate rule), not cancelled.'),
  redeemed: z.number().int().describe('Certificates of the cohort redeemed on or before as_of.'),
  median_months: z.number().int().nullable().describe('The least k with S(k) <= 0.5; null when the curve never gets there.'),
  observed_through_months: z
    .number()
    .int()
    .nullable()
    .describe('The last month with a certificate at risk: later months carry S forward with no data. Null when the cohort is empty.'),
  redeemed_share_by: z.array(RedeemedShare).describe('Share redeemed by 12, 24, 36, 60 and 84 interest months.'),
  curve: z.array(CurveMonth).describe('One row per interest month, 0 to 84.'),
});
export type RedemptionCurve = z.infer<typeof RedemptionCurve>;

export const RateYieldRow = z.object({
  rate: z.number().describe('A bid rate, percent a year.'),
  expected_yield: z
    .number()
    .nullable()
    .describe(
      'Percent a year a bid at this rate earns given redemption within the horizon: sum of f(k) y(rate, k) over sum of f(k), half up to 4 decimals. Null when nothing redeemed within the horizon.',
    ),
  won_above: z.number().nullable().describe('Share of the cohort whose winning rate was above this rate, 4 decimals.'),
  won_at: z.number().nullable().describe('Share of the cohort won at exactly this rate, 4 decimals.'),
});

export const ExpectedYield = z.object({
  scope: RedemptionScopeEcho,
  horizon_months: z.number().int().describe('H: the interest months counted, 1 to 84.'),
  target_yield: z.number().nullable().describe('The target asked for, percent a year; null when none was.'),
  certificates: z.number().int().describe('The cohort, as the redemption curve counts it.'),
  redeemed_within_horizon: z.number().nullable().describe('1 - S(H), half up to 6 decimals; null when the cohort is empty.'),
  rates: z.array(RateYieldRow).describe('One row per rate asked for, ascending.'),
  lowest_rate_meeting_target: z
    .number()
    .nullable()
    .describe('The least rate whose expected_yield (as answered) is at least target_yield; null when none is or no target was given.'),
});
export type ExpectedYield = z.infer<typeof ExpectedYield>;

export const RedemptionCurveResponse = objectResponse(RedemptionCurve);
export const ExpectedYieldResponse = objectResponse(ExpectedYield);
