import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { listEnvelope } from '../../envelope.ts';
import { answers } from '../../openapi/responses.ts';
import { isCsvRequest, sendObject } from '../../reply.ts';
import { flattenPosition, POSITION_CSV_COLUMNS, PositionList } from './position-row.ts';
import { portfolioReadingExamples } from './reading-examples.ts';
import { PortfolioPath } from './params.ts';
import { PositionsParams, SummaryParams } from './reading-params.ts';
import { readPortfolioPositions, readPortfolioSummary } from './read-positions.ts';
import { PortfolioSummaryResponse } from './summary-row.ts';

const NOT_FOUND = 'no portfolio "pf_unknown"; GET /api/v1/portfolios lists yours';

/**
 * The reading side of a client's portfolios (docs/portfolios-reading.md): each position as of a
 * day, and the portfolio's summary. 1 credit each, like any read; another client's portfolio is a 404.
 */
export function portfolioReadingRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const tags = ['portfolios'];
  return async (app) => {
    app.get(
      '/portfolios/:id/positions',
      {
        schema: {
          operationId: 'listPortfolioPositions',
          summary: "A portfolio's positions as of a day",
          description:
            "Each position with its certificate (as GET /certificates/{id} answers it; null while unresolved), its redemption quote on as_of (as GET /certificates/{id}/redemption answers it), its next deadline, what was paid and its annualized yield. A portfolio following a holder group also lists every certificate of that group (a group grown past 100,000 certificates since it was followed is a 403 limit_reached until the portfolio follows a smaller one or none). Filtered, ordered and paged; CSV with format=csv (one flat row per position). 1 credit. Another client's portfolio is a 404.",
          tags,
          params: PortfolioPath,
          querystring: PositionsParams,
          response: answers(
            {
              schema: PositionList,
              description: 'One page of positions.',
              example: portfolioReadingExamples.positions,
              csv: portfolioReadingExamples.positionsCsv,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) => {
        const result = await readPortfolioPositions(deps, request.principal!, request.params, request.query);
        if (isCsvRequest(request))
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', 'inline')
            .send(toCsv([...POSITION_CSV_COLUMNS], result.rows.map(flattenPosition)));
        return reply.send(listEnvelope(result, request.id));
      },
    );
    app.get(
      '/portfolios/:id/summary',
      {
        schema: {
          operationId: 'getPortfolioSummary',
          summary: "A portfolio's summary as of a day",
          description:
            "Positions by status, outstanding face, payoff and accrued interest on as_of, what was redeemed and the interest earned (by year of redemption), deadlines within 7, 30 and 90 days by kind, and unresolved positions. Every amount is the sum, in whole cents, of the positions' own answers. 1 credit. Another client's portfolio is a 404.",
          tags,
          params: PortfolioPath,
          querystring: SummaryParams,
          response: answers(
            { schema: PortfolioSummaryResponse, description: 'The summary.', example: portfolioReadingExamples.summary },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendObject(request, reply, await readPortfolioSummary(deps, request.principal!, request.params, request.query)),
    );
  };
}
