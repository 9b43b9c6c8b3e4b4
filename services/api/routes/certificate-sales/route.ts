import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema, listResponse } from '../../envelope.ts';
import { sendList } from '../../reply.ts';
import { SalesSearchParams } from './params.ts';
import { searchSales } from './read.ts';
import { SALE_COLUMNS, SaleRow } from './row.ts';

export function salesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/certificate-sales/search',
      {
        schema: {
          summary: 'Annual county certificate sales, with their status as of today',
          tags: ['certificate-sales'],
          querystring: SalesSearchParams,
          response: { 200: listResponse(SaleRow), 400: ErrorSchema },
        },
      },
      async (request, reply) => sendList(request, reply, await searchSales(deps, request.query), SALE_COLUMNS),
    );
  };
}
