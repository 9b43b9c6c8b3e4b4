import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema, objectResponse } from '../../envelope.ts';
import { sendObject } from '../../reply.ts';
import { CountiesParams, CountyPath } from './params.ts';
import { readCounties, readCounty } from './read.ts';
import { CountyRow } from './row.ts';

export function countiesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/counties',
      {
        schema: {
          summary: 'All 67 Florida counties, alphabetical by name',
          tags: ['counties'],
          querystring: CountiesParams,
          response: { 200: objectResponse(z.array(CountyRow)), 400: ErrorSchema },
        },
      },
      async (request, reply) => sendObject(request, reply, readCounties(deps, request.query)),
    );
    app.get(
      '/counties/:county',
      {
        schema: {
          summary: 'One county by slug',
          tags: ['counties'],
          params: CountyPath,
          querystring: CountiesParams,
          response: { 200: objectResponse(CountyRow), 404: ErrorSchema },
        },
      },
      async (request, reply) => sendObject(request, reply, readCounty(deps, request.params)),
    );
  };
}
