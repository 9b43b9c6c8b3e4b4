import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Ledger } from '../../../control/ledger.ts';
import { objectEnvelope } from '../../envelope.ts';
import { UsageParams } from './params.ts';
import { readUsage } from './read.ts';
import { UsageResponse } from './row.ts';

/** GET /account/usage: free of charge, so a client out of credits can still see why. */
export function usageRoute(deps: { ledger: Ledger }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/account/usage',
      {
        config: { charge: false },
        schema: {
          summary: "The calling key's credit usage this calendar month (UTC)",
          tags: ['account'],
          querystring: UsageParams,
          response: { 200: UsageResponse },
        },
      },
      async (request) => objectEnvelope(readUsage(deps.ledger, request.principal!), request.id),
    );
  };
}
