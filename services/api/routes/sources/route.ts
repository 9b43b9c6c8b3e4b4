import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema, listResponse } from '../../envelope.ts';
import { sendList } from '../../reply.ts';
import { SourcesCountyParams, SourcesCountyPath, SourcesParams } from './params.ts';
import { readCountySources, readSources } from './read.ts';
import { SOURCE_COLUMNS, SourceRow } from './row.ts';

export function sourcesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sources',
      {
        schema: {
          summary: 'The feed registry: one row per county and tax year',
          tags: ['sources'],
          querystring: SourcesParams,
          response: { 200: listResponse(SourceRow), 400: ErrorSchema },
        },
      },
      async (request, reply) => sendList(request, reply, readSources(deps, request.query), SOURCE_COLUMNS),
    );
    app.get(
      '/sources/:county',
      {
        schema: {
          summary: 'Every source of one county, newest tax year first',
          tags: ['sources'],
          params: SourcesCountyPath,
          querystring: SourcesCountyParams,
          response: { 200: listResponse(SourceRow), 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request, reply) => sendList(request, reply, readCountySources(deps, request.params, request.query), SOURCE_COLUMNS),
    );
  };
}
