import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendList, sendObject } from '../../reply.ts';
import { HolderParams, HolderPath, HoldersSearchParams } from './params.ts';
import { readHolder, searchHolders } from './read.ts';
import { HOLDER_COLUMNS, HolderList, HolderResponse } from './row.ts';

/** The CSV answer's example: the JSON example's rows, written by the same writer as the real ones. */
const csvExample = toCsv(HOLDER_COLUMNS, examples.holderList.data);

export function holdersRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/holders/search',
      {
        schema: {
          operationId: 'searchHolders',
          summary: 'Certificate holders by name, county and holdings',
          description:
            "meta.coverage.status is not_yet_ingested while the holder dataset holds no records. To list a holder's certificates, use /certificates/search?holder=<name>.",
          tags: ['holders'],
          querystring: HoldersSearchParams,
          response: answers({
            schema: HolderList,
            description: 'One page of holders.',
            example: examples.holderList,
            csv: csvExample,
          }),
        },
      },
      async (request, reply) => sendList(request, reply, await searchHolders(deps, request.query), HOLDER_COLUMNS),
    );
    app.get(
      '/holders/:id',
      {
        schema: {
          operationId: 'getHolder',
          summary: 'One holder by id',
          description: 'The holder with this id (hld_<id>), as search returns it.',
          tags: ['holders'],
          params: HolderPath,
          querystring: HolderParams,
          response: answers(
            { schema: HolderResponse, description: 'The holder.', example: examples.holder },
            { notFound: 'no holder has the id "hld_00000000000000000000"; GET /api/v1/holders/search lists holders' },
          ),
        },
      },
      async (request, reply) => sendObject(request, reply, await readHolder(deps, request.params)),
    );
  };
}
