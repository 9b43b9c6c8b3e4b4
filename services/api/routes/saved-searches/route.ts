import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { listEnvelope, objectEnvelope } from '../../envelope.ts';
import { examples, savedSearchExamples } from '../../openapi/examples.ts';
import { answers, writeAnswers } from '../../openapi/responses.ts';
import { WRITE_BODY_LIMIT } from '../../writes/body.ts';
import { sendWrite, withSecretBox } from '../../writes/respond.ts';
import { DeletedResponse, IDEMPOTENT, IdempotencyHeaders } from '../../writes/schemas.ts';
import { CERTIFICATE_COLUMNS } from '../certificates/row.ts';
import { sendCertificates } from '../certificates/send.ts';
import { CertificateGeoJsonList, CertificateSearchList } from '../certificates/row.ts';
import { NoQuery } from '../webhook-endpoints/params.ts';
import { CreateSavedSearchBody, SavedSearchesParams, SavedSearchMatchesParams, SavedSearchPath, UpdateSavedSearchBody } from './params.ts';
import { readSavedSearch, readSavedSearches, readSavedSearchMatches } from './read.ts';
import { SavedSearchList, SavedSearchResponse } from './row.ts';
import { createSavedSearchWrite, deleteSavedSearchWrite, updateSavedSearchWrite } from './write.ts';

const NOT_FOUND = 'no saved search "ss_unknown"; GET /api/v1/saved-searches lists yours';
const PARAMS =
  ' params are the filters of GET /api/v1/certificates/search, read by the same rules with the same messages (each problem named params.<name>); sort, limit, offset, facets and format are refused here: give them to /matches.';
const csvExample = toCsv([...CERTIFICATE_COLUMNS], examples.certificateList.data);

/**
 * The client's saved searches (docs/saved-searches.md): a name and the filters of a certificate
 * search, under the write convention (docs/writes.md), and their matches, which are the
 * certificate search's own answer.
 */
export function savedSearchesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const writeDeps = withSecretBox(deps);
  const tags = ['saved searches'];
  return async (app) => {
    app.post(
      '/saved-searches',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'createSavedSearch',
          summary: 'Save a certificate search',
          description: `Saves a name and the filters of a certificate search; GET /api/v1/saved-searches/{id}/matches answers that search. How many a client may own depends on its plan (403 limit_reached past it).${PARAMS}${IDEMPOTENT}`,
          tags,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: CreateSavedSearchBody.meta({ examples: [savedSearchExamples.createBody] }),
          response: writeAnswers({
            status: 201,
            schema: SavedSearchResponse,
            description: 'The new saved search, its params as the search reads them.',
            example: savedSearchExamples.created,
          }),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => createSavedSearchWrite(writeDeps, request.principal!, request.body)),
    );
    app.get(
      '/saved-searches',
      {
        schema: {
          operationId: 'listSavedSearches',
          summary: 'Your saved searches',
          description: "The calling client's saved searches, oldest first.",
          tags,
          querystring: SavedSearchesParams,
          response: answers({ schema: SavedSearchList, description: 'Your saved searches.', example: savedSearchExamples.list }),
        },
      },
      async (request, reply) => reply.send(listEnvelope(await readSavedSearches(deps, request.principal!, request.query), request.id)),
    );
    app.get(
      '/saved-searches/:id',
      {
        schema: {
          operationId: 'getSavedSearch',
          summary: 'One of your saved searches',
          description: "One saved search. Another client's is a 404.",
          tags,
          params: SavedSearchPath,
          querystring: NoQuery,
          response: answers(
            { schema: SavedSearchResponse, description: 'The saved search.', example: savedSearchExamples.one },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) => reply.send(objectEnvelope(await readSavedSearch(deps, request.principal!, request.params), request.id)),
    );
    app.patch(
      '/saved-searches/:id',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'updateSavedSearch',
          summary: 'Rename a saved search or change its filters',
          description: `A new name, new params (replacing the stored ones whole), or both, in one change: of two concurrent changes one is kept whole. Another client's saved search is a 404.${PARAMS}${IDEMPOTENT}`,
          tags,
          params: SavedSearchPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: UpdateSavedSearchBody.meta({ examples: [savedSearchExamples.updateBody] }),
          response: writeAnswers(
            {
              status: 200,
              schema: SavedSearchResponse,
              description: 'The saved search as it now is.',
              example: savedSearchExamples.updated,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => updateSavedSearchWrite(writeDeps, request.principal!, request.params.id, request.body)),
    );
    app.delete(
      '/saved-searches/:id',
      {
        // A body is never read here, but the limit of every write holds (docs/writes.md).
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'deleteSavedSearch',
          summary: 'Delete a saved search',
          description: `Deletes the saved search. Deleting it again is a 404.${IDEMPOTENT}`,
          tags,
          params: SavedSearchPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            { status: 200, schema: DeletedResponse, description: 'The saved search is gone.', example: savedSearchExamples.deleted },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => deleteSavedSearchWrite(writeDeps, request.principal!, request.params.id)),
    );
    app.get(
      '/saved-searches/:id/matches',
      {
        schema: {
          operationId: 'listSavedSearchMatches',
          summary: 'The certificates a saved search selects',
          description:
            "Exactly what GET /api/v1/certificates/search answers for the saved search's params plus this request's sort, facets, limit, offset and format: the same rows in the same order, the same totals and facets, CSV included. 1 credit, like a search. Another client's saved search is a 404.",
          tags,
          params: SavedSearchPath,
          querystring: SavedSearchMatchesParams,
          response: answers(
            {
              schema: CertificateSearchList,
              description: 'One page of certificates.',
              example: examples.certificateList,
              csv: csvExample,
              geojson: { schema: CertificateGeoJsonList, example: examples.certificateFeatures },
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendCertificates(
          request,
          reply,
          await readSavedSearchMatches(deps, request.principal!, request.params, request.query),
          request.query.expand,
        ),
    );
  };
}
