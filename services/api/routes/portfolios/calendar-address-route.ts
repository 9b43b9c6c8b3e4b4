import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema } from '../../envelope.ts';
import { publicAnswer } from '../../openapi/responses.ts';
import { readCalendarByToken } from './calendar-read.ts';
import { CalendarText, CalendarTokenPath } from './calendar-row.ts';
import { CALENDAR_EXAMPLE, CALENDAR_TYPE } from './calendar-route.ts';

/**
 * The secret calendar address, outside /api/v1: calendar apps fetch it on their own schedule and
 * cannot send an API key, so the token in the path is the credential, and a fetch costs no credit
 * (an app polling every few hours would otherwise spend a customer's credits unasked). Revoked or
 * unknown: 404. Apps are told to come back in an hour at the soonest.
 */
export function calendarAddressRoute(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/calendar/:token.ics',
      {
        schema: {
          operationId: 'getCalendarByAddress',
          summary: "A portfolio's calendar at its secret address (no API key)",
          description:
            'What GET /api/v1/portfolios/{id}/calendar.ics answers, for calendar apps: the token in the path is the credential (made by POST /api/v1/portfolios/{id}/calendar-address). Free; a revoked or unknown token is a 404.',
          tags: ['portfolios'],
          security: [],
          params: CalendarTokenPath,
          response: {
            200: {
              description: 'The calendar.',
              headers: publicAnswer(CalendarText, '').headers,
              content: { 'text/calendar': { schema: CalendarText, example: CALENDAR_EXAMPLE } },
            },
            404: publicAnswer(ErrorSchema, 'No calendar at this address: revoked, or never made.', {
              error: {
                code: 'not_found',
                message: 'no calendar at this address: it was revoked or never existed',
                request_id: 'req_7QjW9pMj1gCGx3QC',
              },
            }),
          },
        },
      },
      async (request, reply) =>
        reply
          .type(CALENDAR_TYPE)
          .header('cache-control', 'private, max-age=3600')
          .send(await readCalendarByToken(deps, request.params.token)),
    );
  };
}
