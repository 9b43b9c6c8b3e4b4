import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { portfolioExamples } from '../../openapi/examples.ts';
import { textAnswers, writeAnswers } from '../../openapi/responses.ts';
import { WRITE_BODY_LIMIT } from '../../writes/body.ts';
import { sendWrite, withSecretBox } from '../../writes/respond.ts';
import { DeletedResponse, IDEMPOTENT, IdempotencyHeaders } from '../../writes/schemas.ts';
import { NoQuery } from '../webhook-endpoints/params.ts';
import { renderCalendar } from './calendar-ics.ts';
import { createCalendarAddressWrite, deleteCalendarAddressWrite, readPortfolioCalendar } from './calendar-read.ts';
import { CalendarAddressResponse, CalendarText } from './calendar-row.ts';
import { PortfolioPath } from './params.ts';

const NOT_FOUND = 'no portfolio "pf_unknown"; GET /api/v1/portfolios lists yours';
export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

/** An example calendar made by the renderer itself, so the document shows what the route writes. */
export const CALENDAR_EXAMPLE = renderCalendar({
  portfolioId: 'pf_Qm9vazE2Y2hhcnM',
  portfolioName: 'Lee and Collier 2024',
  now: '2026-11-28T12:00:00.000Z',
  deadlines: [
    {
      positionId: 'pos_c2FtcGxlcG9zaXRp',
      kind: 'deed_application_opens',
      date: '2027-04-01',
      summary: 'Deed application opens: Lee 2024 certificate 2024-000123',
      description: 'Lee 2024 certificate 2024-000123: face $1,250.00, rate 5%.',
    },
  ],
});

/**
 * A portfolio's deadlines as a calendar (docs/portfolios.md#calendar): read with the API key
 * (1 credit), and a secret read-only address for calendar apps, made and revoked here under the
 * write convention. The address itself is served outside /api/v1 (calendar-address-route.ts).
 */
export function portfolioCalendarRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const writeDeps = withSecretBox(deps);
  const tags = ['portfolios'];
  return async (app) => {
    app.get(
      '/portfolios/:id/calendar.ics',
      {
        schema: {
          operationId: 'getPortfolioCalendar',
          summary: "A portfolio's deadlines as a calendar",
          description:
            "Every deadline still ahead of the portfolio's outstanding certificates (the day a deed application opens, the day a certificate expires) as iCalendar, one all-day event each with alarms 7 days and 1 day before. 1 credit. For calendar apps, which cannot send an API key, POST /api/v1/portfolios/{id}/calendar-address makes a secret address. Another client's portfolio is a 404.",
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          response: textAnswers(
            { mediaType: 'text/calendar', schema: CalendarText, example: CALENDAR_EXAMPLE, description: 'The calendar.' },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) => reply.type(CALENDAR_TYPE).send(await readPortfolioCalendar(deps, request.principal!, request.params.id)),
    );
    app.post(
      '/portfolios/:id/calendar-address',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'createPortfolioCalendarAddress',
          summary: 'Make a secret calendar address for a portfolio',
          description: `A read-only address (outside /api/v1, no API key, no credit) that calendar apps subscribe to; it answers what GET /api/v1/portfolios/{id}/calendar.ics answers. The token is shown in this answer only. Making one replaces the portfolio's previous address. No body.${IDEMPOTENT}`,
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            {
              status: 201,
              schema: CalendarAddressResponse,
              description: 'The new address.',
              example: portfolioExamples.calendarAddress,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => createCalendarAddressWrite(deps, request.principal!, request.params.id)),
    );
    app.delete(
      '/portfolios/:id/calendar-address',
      {
        schema: {
          operationId: 'deletePortfolioCalendarAddress',
          summary: "Revoke a portfolio's calendar address",
          description: `The address stops answering at once (404). A portfolio with no address is a 404.${IDEMPOTENT}`,
          tags,
          params: PortfolioPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            {
              status: 200,
              schema: DeletedResponse,
              description: 'Revoked.',
              example: portfolioExamples.calendarRevoked,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => deleteCalendarAddressWrite(deps, request.principal!, request.params.id)),
    );
  };
}
