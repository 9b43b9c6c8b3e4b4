import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendObject } from '../../reply.ts';
import { AsOfParams, QuotePath } from './params.ts';
import { readCertificateTimeline, readDeedEstimate, readRedemptionQuote } from './read.ts';
import { DeedEstimateResponse, RedemptionQuoteResponse, TimelineResponse } from './row.ts';

/**
 * /certificates/{id}/redemption, /timeline and /deed-estimate. Two segments
 * deep, so they never meet /certificates/{id} or the static
 * /certificates/search, by-parcel, counts, fields and freshness.
 */
export function certificateQuotesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['certificates'];
    const notFound = 'no certificate has the id "cert_00000000000000000000"; certificate ids look like cert_ followed by 20 hex digits';

    app.get(
      '/certificates/:id/redemption',
      {
        schema: {
          operationId: 'getRedemptionQuote',
          summary: 'What a certificate pays off on a day (redemption quote)',
          description:
            'Face plus interest by calendar month from June of the sale year at the bid rate, never less than the 5% minimum except on a 0% bid, half up to the cent; holder_amount is what the holder receives, total_due adds the $6.25 fee. date defaults to today in Florida; a date before the sale date is a 400.',
          tags,
          params: QuotePath,
          querystring: AsOfParams,
          response: answers(
            { schema: RedemptionQuoteResponse, description: 'The quote.', example: examples.redemptionQuote },
            { notFound },
          ),
        },
      },
      async (request, reply) => sendObject(request, reply, await readRedemptionQuote(deps, { ...request.params, ...request.query })),
    );

    app.get(
      '/certificates/:id/timeline',
      {
        schema: {
          operationId: 'getCertificateTimeline',
          summary: "A certificate's statutory dates and next deadline",
          description:
            'Sale, interest start (June 1 of the sale year), earliest tax deed application (April 1 of the sale year + 2), expiry (sale date + 7 years, null once a deed application is on record), and the next deadline with the days left while the certificate is outstanding.',
          tags,
          params: QuotePath,
          querystring: AsOfParams,
          response: answers(
            { schema: TimelineResponse, description: 'The timeline.', example: examples.certificateTimeline },
            { notFound },
          ),
        },
      },
      async (request, reply) => sendObject(request, reply, await readCertificateTimeline(deps, { ...request.params, ...request.query })),
    );

    app.get(
      '/certificates/:id/deed-estimate',
      {
        schema: {
          operationId: 'getDeedEstimate',
          summary: 'What applying for a tax deed would cost, as far as the data knows',
          description:
            'Whether the holder may apply on the day, from when, every other unredeemed certificate on the same parcel with its redemption amount that day, the $75 application fee, their known total, and what the data cannot know (not_included).',
          tags,
          params: QuotePath,
          querystring: AsOfParams,
          response: answers({ schema: DeedEstimateResponse, description: 'The estimate.', example: examples.deedEstimate }, { notFound }),
        },
      },
      async (request, reply) => sendObject(request, reply, await readDeedEstimate(deps, { ...request.params, ...request.query })),
    );
  };
}
