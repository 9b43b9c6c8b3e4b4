import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { CertificateSaleList } from '../../openapi/components.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendList } from '../../reply.ts';
import { SalesSearchParams } from './params.ts';
import { searchSales } from './read.ts';
import { SALE_COLUMNS } from './row.ts';

export function salesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/certificate-sales/search',
      {
        schema: {
          operationId: 'searchCertificateSales',
          summary: 'Annual county certificate sales, with their status as of today',
          description:
            'One row per county and tax year: dates, platform, what was offered and sold, the average winning bid rate and what was struck to the county. status is computed for today in Florida.',
          tags: ['certificate-sales'],
          querystring: SalesSearchParams,
          response: answers({
            schema: CertificateSaleList,
            description: 'One page of sales.',
            example: examples.certificateSaleList,
            csv: examples.certificateSaleCsv,
          }),
        },
      },
      async (request, reply) => sendList(request, reply, await searchSales(deps, request.query), SALE_COLUMNS),
    );
  };
}
