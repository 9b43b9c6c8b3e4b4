import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { listEnvelope, objectEnvelope } from '../../envelope.ts';
import { portfolioExamples } from '../../openapi/examples.ts';
import { answers, writeAnswers } from '../../openapi/responses.ts';
import { BULK_WRITE_BODY_LIMIT, bodySize, WRITE_BODY_LIMIT } from '../../writes/body.ts';
import { sendWrite, withSecretBox } from '../../writes/respond.ts';
import { DeletedResponse, IDEMPOTENT, IdempotencyHeaders } from '../../writes/schemas.ts';
import { NoQuery } from '../webhook-endpoints/params.ts';
import { AddPositionsBody, CreatePortfolioBody, PortfolioPath, PortfoliosParams, PositionPath, UpdatePortfolioBody } from './params.ts';
import { readPortfolio, readPortfolios } from './read.ts';
import { PortfolioList, PortfolioResponse, PositionsReportResponse } from './row.ts';
import { addPositionsWrite, createPortfolioWrite, deletePortfolioWrite, deletePositionWrite, updatePortfolioWrite } from './write.ts';

const NOT_FOUND = 'no portfolio "pf_unknown"; GET /api/v1/portfolios lists yours';
const FOLLOW =
  ' follow_holder_group is a group_id of GET /api/v1/analytics/holders; one that no loaded certificate names is a 400 naming follow_holder_group, and one holding more certificates than the plan allows positions in one portfolio (at most 100,000) is a 403 limit_reached.';
const BULK = bodySize(BULK_WRITE_BODY_LIMIT);

/**
 * The client's portfolios (docs/portfolios.md) under the write convention (docs/writes.md):
 * the portfolio itself, and its positions added in bulk with a report per line. Reading
 * positions with their quotes is another route's.
 */
export function portfoliosRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const writeDeps = withSecretBox(deps);
  const tags = ['portfolios'];
  return async (app) => {
    app.post(
      '/portfolios',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'createPortfolio',
          summary: 'Create a portfolio',
          description: `Creates a named portfolio of the certificates you hold; POST /api/v1/portfolios/{id}/positions adds them. How many a client may own depends on its plan (403 limit_reached past it).${FOLLOW}${IDEMPOTENT}`,
          tags,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: CreatePortfolioBody.meta({ examples: [portfolioExamples.createBody] }),
          response: writeAnswers({
            status: 201,
            schema: PortfolioResponse,
            description: 'The new portfolio.',
            example: portfolioExamples.created,
          }),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => createPortfolioWrite(writeDeps, request.principal!, request.body)),
    );
    app.get(
      '/portfolios',
      {
        schema: {
          operationId: 'listPortfolios',
          summary: 'Your portfolios',
          description: "The calling client's portfolios, oldest first.",
          tags,
          querystring: PortfoliosParams,
          response: answers({ schema: PortfolioList, description: 'Your portfolios.', example: portfolioExamples.list }),
        },
      },
      async (request, reply) => reply.send(listEnvelope(await readPortfolios(deps, request.principal!, request.query), request.id)),
    );
    app.get(
      '/portfolios/:id',
      {
        schema: {
          operationId: 'getPortfolio',
          summary: 'One of your portfolios',
          description: "One portfolio. Another client's is a 404.",
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          response: answers(
            { schema: PortfolioResponse, description: 'The portfolio.', example: portfolioExamples.one },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) => reply.send(objectEnvelope(await readPortfolio(deps, request.principal!, request.params), request.id)),
    );
    app.patch(
      '/portfolios/:id',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'updatePortfolio',
          summary: 'Rename a portfolio or change the holder group it follows',
          description: `A new name, another followed holder group (null follows none), or both, in one change. Another client's portfolio is a 404.${FOLLOW}${IDEMPOTENT}`,
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: UpdatePortfolioBody.meta({ examples: [portfolioExamples.updateBody] }),
          response: writeAnswers(
            { status: 200, schema: PortfolioResponse, description: 'The portfolio as it now is.', example: portfolioExamples.updated },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => updatePortfolioWrite(writeDeps, request.principal!, request.params.id, request.body)),
    );
    app.delete(
      '/portfolios/:id',
      {
        // A body is never read here, but the limit of every write holds (docs/writes.md).
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'deletePortfolio',
          summary: 'Delete a portfolio',
          description: `Deletes the portfolio with all its positions. Deleting it again is a 404.${IDEMPOTENT}`,
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            {
              status: 200,
              schema: DeletedResponse,
              description: 'The portfolio and its positions are gone.',
              example: portfolioExamples.deleted,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => deletePortfolioWrite(writeDeps, request.principal!, request.params.id)),
    );
    app.post(
      '/portfolios/:id/positions',
      {
        // 10,000 lines do not fit the 64 KiB of other writes (writes/body.ts).
        bodyLimit: BULK_WRITE_BODY_LIMIT,
        schema: {
          operationId: 'addPortfolioPositions',
          summary: 'Add certificates you hold to a portfolio',
          description: `Adds 1 to 10,000 positions in one request (a body of at most ${BULK}), each line naming a certificate by certificate_id or by county, certificate_number and tax_year, with optional acquired_on, acquired_amount (dollars) and note. Each line is answered on its own, in order: created, or rejected with a code (invalid, unknown_county, unknown_certificate, duplicate) and the field at fault; good lines are added even when others are not. A line whose certificate is not loaded yet is created with resolved: false and resolves once an ingest loads it (a line by certificate_id must name a loaded certificate). A portfolio holds as many positions as its plan allows (403 limit_reached, nothing added). More than 10,000 lines is a 400 naming positions.${IDEMPOTENT}`,
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: AddPositionsBody.meta({ examples: [portfolioExamples.positionsBody] }),
          response: writeAnswers(
            {
              status: 200,
              schema: PositionsReportResponse,
              description: 'What became of each line, in order, and how many were created, unresolved and rejected.',
              example: portfolioExamples.positionsAdded,
            },
            {
              notFound: NOT_FOUND,
              tooLarge: {
                description: `The request body is over ${BULK}.`,
                message: `request body too large: a list of positions takes at most ${BULK} of JSON`,
              },
            },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => addPositionsWrite(writeDeps, request.principal!, request.params.id, request.body)),
    );
    app.delete(
      '/portfolios/:id/positions/:position_id',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'deletePortfolioPosition',
          summary: 'Remove a position from a portfolio',
          description: `Removes one position. Removing it again, or a position of another portfolio, is a 404.${IDEMPOTENT}`,
          tags,
          params: PositionPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            { status: 200, schema: DeletedResponse, description: 'The position is gone.', example: portfolioExamples.positionDeleted },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () =>
          deletePositionWrite(writeDeps, request.principal!, request.params.id, request.params.position_id),
        ),
    );
  };
}
