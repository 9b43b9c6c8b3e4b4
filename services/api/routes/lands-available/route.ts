import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendList } from '../../reply.ts';
import { LandsSearchParams } from './params.ts';
import { searchLands } from './read.ts';
import { LANDS_COLUMNS, LandsAvailableList } from './row.ts';

/** The CSV answer's example: the JSON example's rows, written by the same writer as the real ones. */
const csvExample = toCsv(LANDS_COLUMNS, examples.landsAvailableList.data);

export function landsRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/lands-available/search',
      {
        schema: {
          operationId: 'searchLandsAvailable',
          summary: "Parcels on the counties' lands-available lists",
          description:
            'meta.coverage.status is not_yet_ingested while the dataset holds no records. Parcels are sold as-is, subject to their liens.',
          tags: ['lands-available'],
          querystring: LandsSearchParams,
          response: answers({
            schema: LandsAvailableList,
            description: 'One page of lands-available records.',
            example: examples.landsAvailableList,
            csv: csvExample,
          }),
        },
      },
      async (request, reply) => sendList(request, reply, await searchLands(deps, request.query), LANDS_COLUMNS),
    );
  };
}
