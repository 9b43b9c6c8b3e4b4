import { z } from 'zod';
import { bidRate, calendarDate, integer, multi, rangeOrder } from '../../../params/common.ts';
import { CertificateSearchParams, type PlaceFilters, placeFilters, placeRules } from '../../certificates/params.ts';

/**
 * GET /analytics/redemption-curve and /analytics/expected-yield. The scope's county, tax_year,
 * vendor, face_min and face_max are certificate search's own (one schema per thing), so a scope
 * here selects what /certificates/search selects with the same filters; rate_min and rate_max
 * add the winning rate.
 */
const search = CertificateSearchParams.shape;

/** The longest a certificate lives: 7 years of interest months (s. 197.482). */
export const MAX_MONTHS = 84;

/** The quarter-point grid of bids (params/common.ts), shared with certificate search's rate_min and rate_max. */
export { bidRate };

const scope = {
  county: search.county,
  tax_year: search.tax_year,
  vendor: search.vendor,
  face_min: search.face_min,
  face_max: search.face_max,
  rate_min: search.rate_min,
  rate_max: search.rate_max,
  ...placeFilters,
  as_of: calendarDate
    .optional()
    .describe(
      'The day the curve is drawn as of (YYYY-MM-DD), not after today; default today in Florida (America/New_York). Certificates sold after it are not in the cohort, redemptions after it have not happened yet, and a day before every sale in scope is a 400.',
    ),
};

const scopeOrder = rangeOrder([
  ['face_min', 'face_max'],
  ['rate_min', 'rate_max'],
]);

function scopeRanges(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  scopeOrder(value, ctx);
  placeRules(value as PlaceFilters, ctx);
}

export const RedemptionCurveParams = z.strictObject(scope).superRefine(scopeRanges);
export type RedemptionCurveParams = z.infer<typeof RedemptionCurveParams>;

const TARGET = 'must be a yield in percent a year from 0 to 100, such as 8 or 12.5';

export const ExpectedYieldParams = z
  .strictObject({
    ...scope,
    rates: multi(bidRate, 73)
      .optional()
      .describe(
        'Bid rates to answer for, percent in quarter points (repeat or separate with commas); default every quarter point from 0 to 18.',
      ),
    horizon_months: integer(1, MAX_MONTHS)
      .default(MAX_MONTHS)
      .describe('Interest months a bidder is willing to wait, 1 to 84 (default 84): the yield counts redemptions within them.'),
    target_yield: z
      .number({ error: TARGET })
      .min(0, TARGET)
      .max(100, TARGET)
      .optional()
      .describe('A yield in percent a year: the answer names the lowest rate whose expected yield reaches it.'),
  })
  .superRefine(scopeRanges);
export type ExpectedYieldParams = z.infer<typeof ExpectedYieldParams>;

/** The scope alone, as both routes take it. */
export type RedemptionScope = Pick<RedemptionCurveParams, keyof typeof scope>;
