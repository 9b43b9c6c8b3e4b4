import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../../deps.ts';
import { bidRateExample } from '../../../openapi/examples.ts';
import { answers } from '../../../openapi/responses.ts';
import { sendAnalytic } from '../analytic-reply.ts';
import { BidRateParams } from './params.ts';
import { readBidRates } from './read.ts';
import { BidRateAnalyticsResponse } from './row.ts';

export function bidRatesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/bid-rates',
      {
        // Reads a whole scope of certificates: counted in the client's analytic share (access.holdAnalytic).
        config: { analytic: true },
        schema: {
          operationId: 'getBidRateAnalytics',
          summary: 'Clearing rates: where bids still clear above 5%',
          description:
            'Winning bid rates of the certificates sold to a bidder (every status but available and advertised, not struck to the county) in a scope of counties, tax years and vendors: exact nearest-rank percentiles, means, shares at 0, 0.25, 1, 5 and 18 percent, one histogram row per rate, and the same per county. No parameter: the whole data set. A scope of county, tax_year and vendor is added up from rollups kept at ingest (the X-Analytics-Path header says rollup) at any size; a scope the rollups cannot answer is read from the certificates (scan), and what one credit buys is then bounded: a scan of more than 2,000,000 certificates (the default cap) is a 400 naming county, tax_year and vendor. A client may have 2 analytic requests in flight at once (one more is a 429).',
          tags: ['analytics'],
          querystring: BidRateParams,
          response: answers({
            schema: BidRateAnalyticsResponse,
            description: 'The bid-rate figures of the scope.',
            example: bidRateExample,
          }),
        },
      },
      async (request, reply) => sendAnalytic(request, reply, await readBidRates(deps, request.query)),
    );
  };
}
