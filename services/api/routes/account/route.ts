import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Access } from '../../access/access.ts';
import { ErrorSchema, objectResponse } from '../../envelope.ts';
import { sendObject } from '../../reply.ts';
import { UsageParams } from './params.ts';
import { readUsage } from './read.ts';
import { Usage } from './row.ts';

/** GET /account/usage: free of charge (still authenticated and rate-limited), so a client out of credits can see why. */
export function usageRoute(access: Pick<Access, 'ledger'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/account/usage',
      {
        config: { charge: false },
        schema: {
          summary: "The calling key's credit usage this calendar month (UTC); costs no credit",
          tags: ['account'],
          querystring: UsageParams,
          response: { 200: objectResponse(Usage), 400: ErrorSchema },
        },
      },
      async (request, reply) => sendObject(request, reply, { data: readUsage(access.ledger, request.principal!) }),
    );
  };
}
