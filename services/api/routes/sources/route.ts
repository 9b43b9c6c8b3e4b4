import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendList } from '../../reply.ts';
import { SourcesCountyParams, SourcesCountyPath, SourcesParams } from './params.ts';
import { readCountySources, readSources } from './read.ts';
import { SOURCE_COLUMNS, SourceList } from './row.ts';

/** The CSV answers' example: the county sources example's rows, written by the same writer as the real ones. */
const csvExample = toCsv(SOURCE_COLUMNS, examples.countySources.data);

export function sourcesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sources',
      {
        schema: {
          operationId: 'listSources',
          summary: 'The feed registry: one row per county and tax year',
          description:
            'Which source feeds each county and tax year, whether it is active, and when it was last checked and last succeeded. limit defaults to 100.',
          tags: ['sources'],
          querystring: SourcesParams,
          response: answers({ schema: SourceList, description: 'One page of sources.', example: examples.sourceList, csv: csvExample }),
        },
      },
      async (request, reply) => sendList(request, reply, await readSources(deps, request.query), SOURCE_COLUMNS),
    );
    app.get(
      '/sources/:county',
      {
        schema: {
          operationId: 'getCountySources',
          summary: 'Every source of one county, newest tax year first',
          description: 'The sources of the county with this slug; a county without any source is a 404. limit defaults to 100.',
          tags: ['sources'],
          params: SourcesCountyPath,
          querystring: SourcesCountyParams,
          response: answers(
            { schema: SourceList, description: "The county's sources.", example: examples.countySources, csv: csvExample },
            { notFound: 'no sources for the county "leon"; GET /api/v1/sources lists every source' },
          ),
        },
      },
      async (request, reply) => sendList(request, reply, await readCountySources(deps, request.params, request.query), SOURCE_COLUMNS),
    );
  };
}
