import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../../deps.ts';
import { listEnvelope } from '../../../envelope.ts';
import { examples } from '../../../openapi/examples.ts';
import { answers } from '../../../openapi/responses.ts';
import { HolderGroupsParams } from './params.ts';
import { searchHolderGroups } from './read.ts';
import { HolderGroupList } from './row.ts';

export function holderGroupsRoute(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/holders',
      {
        // Reads a whole scope of certificates: counted in the client's analytic share (access.holdAnalytic).
        config: { analytic: true },
        schema: {
          operationId: 'searchHolderGroups',
          summary: 'Holder groups: who the competition is',
          description:
            'Holders grouped into families by one documented rule computed at ingest (case, punctuation and "&"/"and" ignored; legal forms such as LLC, INC, LP dropped; a trailing series number, year, roman numeral or "SERIES x" dropped from entity names; "<bank> AS CUSTODIAN FOR X" counted as X; plus an alias file), and the county\'s own certificates as one group per county. Every certificate in scope belongs to exactly one group: the groups\' certificates add up to the certificates in scope, each group\'s members add up to the group. pagination.total is the number of groups. What one credit buys is bounded: a page holds at most 50 groups, the whole index and one county without tax_year are read from figures kept at ingest (X-Analytics-Path: rollup) at any size; any other scope is counted from the certificates (scan), and then a scope of more than 100,000 certificates (the default cap; 50,000 for sort=median_rate_asc) is a 400 naming county and tax_year, and a client may have 2 analytic requests in flight at once (one more is a 429).',
          tags: ['analytics'],
          querystring: HolderGroupsParams,
          response: answers({ schema: HolderGroupList, description: 'One page of holder groups.', example: examples.holderGroupList }),
        },
      },
      // JSON only (no format parameter): a group's members are rows of their own, which CSV cannot nest.
      async (request, reply) => {
        const result = await searchHolderGroups(deps, request.query);
        // Rollup or scan, as the other analytic answers say (analytic-reply.ts).
        reply.header('x-analytics-path', result.path);
        return reply.send(listEnvelope(result, request.id));
      },
    );
  };
}
