import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../../deps.ts';
import { expectedYieldExample, redemptionCurveExample } from '../../../openapi/examples.ts';
import { answers } from '../../../openapi/responses.ts';
import { sendAnalytic } from '../analytic-reply.ts';
import { ExpectedYieldParams, RedemptionCurveParams } from './params.ts';
import { readExpectedYield, readRedemptionCurve } from './read.ts';
import { ExpectedYieldResponse, RedemptionCurveResponse } from './row.ts';

const SCOPE =
  'The cohort: certificates in scope (county, tax_year, vendor, face_min/face_max, rate_min/rate_max) sold to a bidder on or before as_of (every status but available and advertised, not struck to the county), not cancelled. Time is interest months as the redemption quote counts them (June of the sale year is month 1, before June month 0): a redemption is an event at the months of its redeemed_date, every other certificate is censored at the months of as_of, capped at 84. Exact from counts: a scope of county, tax_year and vendor only is added up from rollups kept at ingest (X-Analytics-Path: rollup) at any size; any other is read from the certificates (scan), and a scan of more than 2,000,000 certificates (the default cap) is a 400 naming the parameters that narrow it. A client may have 2 analytic requests in flight at once.';

export function redemptionRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/redemption-curve',
      {
        // Reads a whole scope of certificates: counted in the client's analytic share (access.holdAnalytic).
        config: { analytic: true },
        schema: {
          operationId: 'getRedemptionCurve',
          summary: 'Redemption curve: how soon certificates redeem',
          description: `Kaplan-Meier survival of a cohort of certificates by interest month, 0 to 84: at risk, redeemed, censored and S(k) for every month, the median months to redemption and the share redeemed by 12, 24, 36, 60 and 84 months. ${SCOPE}`,
          tags: ['analytics'],
          querystring: RedemptionCurveParams,
          response: answers({
            schema: RedemptionCurveResponse,
            description: 'The redemption curve of the scope.',
            example: redemptionCurveExample,
          }),
        },
      },
      async (request, reply) => sendAnalytic(request, reply, await readRedemptionCurve(deps, request.query)),
    );
    app.get(
      '/analytics/expected-yield',
      {
        config: { analytic: true },
        schema: {
          operationId: 'getExpectedYield',
          summary: 'Expected yield by bid rate',
          description: `What each bid rate earns over the scope's redemption curve: for rate r and horizon H, the expected yield is the sum over k = 0..H of f(k) y(r, k) over the sum of f(k), with f(k) = S(k-1) - S(k) and y(r, k) = max(r k / 12, 5) x 12 / k percent a year (0 for a 0% bid or month 0); also the shares of the cohort won above and at each rate, and with target_yield the lowest rate that reaches it. ${SCOPE}`,
          tags: ['analytics'],
          querystring: ExpectedYieldParams,
          response: answers({
            schema: ExpectedYieldResponse,
            description: 'Expected yield of each rate asked for.',
            example: expectedYieldExample,
          }),
        },
      },
      async (request, reply) => sendAnalytic(request, reply, await readExpectedYield(deps, request.query)),
    );
  };
}
