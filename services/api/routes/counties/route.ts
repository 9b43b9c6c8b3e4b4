import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendObject } from '../../reply.ts';
import { CountiesParams, CountyPath } from './params.ts';
import { readCounties, readCounty } from './read.ts';
import { CountyListResponse, CountyResponse } from './row.ts';

export function countiesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/counties',
      {
        schema: {
          operationId: 'listCounties',
          summary: 'All 67 Florida counties, alphabetical by name',
          description:
            'Every county with its FIPS and DOR numbers, sale platform, coverage status and certificate count; countySlug is the value of every county filter.',
          tags: ['counties'],
          querystring: CountiesParams,
          response: answers({ schema: CountyListResponse, description: 'All counties.', example: examples.countyList }),
        },
      },
      async (request, reply) => sendObject(request, reply, await readCounties(deps, request.query)),
    );
    app.get(
      '/counties/:county',
      {
        schema: {
          operationId: 'getCounty',
          summary: 'One county by slug',
          description: 'The county with this slug (e.g. miami-dade), as the list returns it.',
          tags: ['counties'],
          params: CountyPath,
          querystring: CountiesParams,
          response: answers(
            { schema: CountyResponse, description: 'The county.', example: examples.county },
            { notFound: 'no county has the slug "atlantis"; GET /api/v1/counties lists all 67' },
          ),
        },
      },
      async (request, reply) => sendObject(request, reply, await readCounty(deps, request.params)),
    );
  };
}
