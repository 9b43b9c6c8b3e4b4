import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { listEnvelope } from '../../envelope.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { EventsParams } from './params.ts';
import { readEvents } from './read.ts';
import { EventList } from './row.ts';

export function eventsRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/events',
      {
        schema: {
          operationId: 'listEvents',
          summary: 'The change feed: what changed, oldest first after a cursor',
          description:
            "Every change the API shows, recorded when it became searchable: certificates created, loaded, redeemed, taken to a tax deed application, moved to lands available, cancelled or updated; sales created and their status moves; county coverage moves; the caller's own saved searches' events (saved_search.match_added, match_removed, match_updated, matches_loaded) and portfolios' alerts (portfolio.deadline_approaching, portfolio.position_changed), which no other client sees. Oldest first after the event id given as after; pass pagination.next_after back as after to poll, and no event is missed or seen twice. data.object is the row as the API renders it, data.previous the changed fields with their old values (a deadline alert carries the certificate, kind, date and days_left instead). Events are kept 90 days by default; an older cursor answers 410 cursor_expired. Costs 1 credit like any read.",
          tags: ['events'],
          querystring: EventsParams,
          response: answers(
            { schema: EventList, description: 'One page of events, oldest first.', example: examples.eventList },
            { expiringCursor: true },
          ),
        },
      },
      // JSON only: an event's nested data has no CSV form (the route takes no format).
      async (request, reply) => reply.send(listEnvelope(await readEvents(deps, request.principal!.client.id, request.query), request.id)),
    );
  };
}
