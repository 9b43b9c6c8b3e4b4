import { z } from 'zod';
import { objectResponse } from '../../../envelope.ts';

/**
 * The answer of GET /analytics/bid-rates: clearing rates of the certificates sold
 * to a bidder in a scope. Every figure is exact (counted, never sampled or
 * estimated); rates are percent per year as bid, shares fractions of the
 * certificates, with 4 decimals.
 */

const rate = z.number().nullable();
const share = z.number().nullable();

export const BidRateScope = z.object({
  county: z.array(z.string()).nullable().describe('County slugs of the scope, as given; null: every county.'),
  tax_year: z.array(z.number().int()).nullable().describe('Tax years of the scope, as given; null: every tax year.'),
  vendor: z.array(z.string()).nullable().describe('Vendors of the scope, as given; null: every vendor.'),
});

export const BidRateStats = z.object({
  min: rate.describe('Lowest winning rate; null when no certificate is in scope.'),
  p25: rate.describe('25th percentile by nearest rank: the rate at rank ceil(0.25 x n) in ascending order.'),
  median: rate.describe('Median by nearest rank: the rate at rank ceil(0.5 x n).'),
  p75: rate.describe('75th percentile by nearest rank: the rate at rank ceil(0.75 x n).'),
  max: rate.describe('Highest winning rate.'),
  mean: rate.describe('Mean rate over certificates, rounded half up to 4 decimals.'),
  face_weighted_mean: rate.describe('Mean rate weighted by face amount, rounded half up to 4 decimals; null when the face total is 0.'),
});

export const BidRateShares = z.object({
  zero: share.describe('Share bid at 0% (earns nothing, not even the 5% minimum).'),
  quarter: share.describe('Share bid at exactly 0.25%.'),
  at_or_below_1: share.describe('Share bid at 1% or less.'),
  above_5: share.describe('Share bid above 5% (where a bid beats the 5% mandatory minimum).'),
  at_18: share.describe('Share at 18%, the opening rate (no competing bid).'),
});

export const BidRateBucket = z.object({
  rate: z.number().describe('A winning rate, percent per year.'),
  certificates: z.number().int().describe('Certificates won at this rate.'),
  face_amount: z.number().describe('Their face amount in US dollars (exact cents).'),
});

export const BidRateCounty = z.object({
  county: z.string().describe('County slug.'),
  certificates: z.number().int().describe('Certificates sold to a bidder in this county (within the scope).'),
  median: z.number().describe('Median rate by nearest rank.'),
  share_quarter: z.number().describe('Share bid at exactly 0.25%, 4 decimals.'),
  share_above_5: z.number().describe('Share bid above 5%, 4 decimals.'),
});

export const BidRateAnalytics = z.object({
  scope: BidRateScope.describe('The scope asked for (null where a parameter was not given).'),
  certificates: z
    .number()
    .int()
    .describe('Certificates sold to a bidder in scope: every status but available and advertised, not struck to the county.'),
  struck_to_county: z
    .number()
    .int()
    .describe('Certificates in scope struck to the county (no bidder took them); not in the figures below.'),
  face_amount: z.number().describe('Face amount of the certificates sold to a bidder, US dollars (exact cents).'),
  rate: BidRateStats.describe('Winning rates (percent per year); null where there are no certificates.'),
  shares: BidRateShares.describe('Fractions of the certificates, 4 decimals (half up); null where there are no certificates.'),
  histogram: z.array(BidRateBucket).describe('One row per distinct winning rate, ascending.'),
  by_county: z
    .array(BidRateCounty)
    .describe('Every county in scope with certificates sold to a bidder, most certificates first (ties by slug).'),
});
export type BidRateAnalytics = z.infer<typeof BidRateAnalytics>;

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const BidRateAnalyticsResponse = objectResponse(BidRateAnalytics);
