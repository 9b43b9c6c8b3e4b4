import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { LandsAvailableList } from '../../openapi/components.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendList } from '../../reply.ts';
import { LandsSearchParams } from './params.ts';
import { searchLands } from './read.ts';
import { LANDS_COLUMNS } from './row.ts';

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
            csv: examples.landsAvailableCsv,
          }),
        },
      },
      async (request, reply) => sendList(request, reply, await searchLands(deps, request.query), LANDS_COLUMNS),
    );
  };
}
