import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Access } from '../../access/access.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendObject } from '../../reply.ts';
import { UsageParams } from './params.ts';
import { readUsage } from './read.ts';
import { UsageResponse } from './row.ts';

/** GET /account/usage: free of charge (still authenticated and rate-limited), so a client out of credits can see why. */
export function usageRoute(access: Pick<Access, 'ledger'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/account/usage',
      {
        config: { charge: false },
        schema: {
          operationId: 'getUsage',
          summary: "The calling key's credit usage this calendar month (UTC); costs no credit",
          description:
            'Credits used this calendar month (UTC) by every key of the calling client, the monthly quota, the percentage used, when the month resets and the plan. Costs no credit, so it answers even when credits are gone.',
          tags: ['account'],
          querystring: UsageParams,
          response: answers({ schema: UsageResponse, description: 'Usage this month.', example: examples.usage }, { charged: false }),
        },
      },
      async (request, reply) => sendObject(request, reply, { data: await readUsage(access.ledger, request.principal!) }),
    );
  };
}
