import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendList } from '../../reply.ts';
import { SalesSearchParams } from './params.ts';
import { searchSales } from './read.ts';
import { CertificateSaleList, SALE_COLUMNS } from './row.ts';

/** The CSV answer's example: the JSON example's rows, written by the same writer as the real ones. */
const csvExample = toCsv(SALE_COLUMNS, examples.certificateSaleList.data);

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
            csv: csvExample,
          }),
        },
      },
      async (request, reply) => sendList(request, reply, await searchSales(deps, request.query), SALE_COLUMNS),
    );
  };
}
