import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema, listResponse, objectResponse } from '../../envelope.ts';
import { sendList, sendObject } from '../../reply.ts';
import { HolderParams, HolderPath, HoldersSearchParams } from './params.ts';
import { readHolder, searchHolders } from './read.ts';
import { HOLDER_COLUMNS, HolderRow } from './row.ts';

export function holdersRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/holders/search',
      {
        schema: {
          summary: 'Certificate holders by name, county and holdings',
          description: 'meta.coverage.status is not_yet_ingested while the holder dataset holds no records. To list a holder\'s certificates, use /certificates/search?holder=<name>.',
          tags: ['holders'],
          querystring: HoldersSearchParams,
          response: { 200: listResponse(HolderRow), 400: ErrorSchema },
        },
      },
      async (request, reply) => sendList(request, reply, await searchHolders(deps, request.query), HOLDER_COLUMNS),
    );
    app.get(
      '/holders/:id',
      {
        schema: {
          summary: 'One holder by id',
          tags: ['holders'],
          params: HolderPath,
          querystring: HolderParams,
          response: { 200: objectResponse(HolderRow), 404: ErrorSchema },
        },
      },
      async (request, reply) => sendObject(request, reply, await readHolder(deps, request.params)),
    );
  };
}
