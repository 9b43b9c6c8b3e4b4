import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema, listResponse, objectResponse } from '../../envelope.ts';
import { sendList, sendObject } from '../../reply.ts';
import { FieldDictionary } from './fields.ts';
import { ByParcelParams, CertificateIdPath, CertificateSearchParams, CountsParams, NoParams } from './params.ts';
import { readByParcel, readCertificate, readCertificateSearch } from './read.ts';
import { readCertificateFields, readCertificateFreshness, readCounts } from './read-stats.ts';
import { CERTIFICATE_COLUMNS, CertificateCountsObject, CertificateRow, FreshnessObject } from './row.ts';

/**
 * Every /certificates route. The fixed paths (search, by-parcel, counts, fields,
 * freshness) are static routes, which the router always prefers over /:id, so
 * none of them is ever read as an id.
 */
export function certificatesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['certificates'];
    const errors = { 400: ErrorSchema, 500: ErrorSchema };

    app.get(
      '/certificates/search',
      {
        schema: {
          summary: 'Search certificates: free text, filters, sorts and facets',
          tags,
          querystring: CertificateSearchParams,
          response: { 200: listResponse(CertificateRow, true), ...errors },
        },
      },
      async (request, reply) => sendList(request, reply, await readCertificateSearch(deps, request.query), CERTIFICATE_COLUMNS),
    );

    app.get(
      '/certificates/by-parcel',
      {
        schema: {
          summary: 'Every certificate of one parcel, all tax years, newest first',
          tags,
          querystring: ByParcelParams,
          response: { 200: listResponse(CertificateRow), ...errors },
        },
      },
      async (request, reply) => sendList(request, reply, await readByParcel(deps, request.query), CERTIFICATE_COLUMNS),
    );

    app.get(
      '/certificates/counts',
      {
        schema: {
          summary: 'Certificate counts per status, optionally for one county and tax year',
          tags,
          querystring: CountsParams,
          response: { 200: objectResponse(CertificateCountsObject), ...errors },
        },
      },
      async (request, reply) => sendObject(request, reply, await readCounts(deps, request.query)),
    );

    app.get(
      '/certificates/fields',
      {
        schema: {
          summary: 'The certificate field dictionary',
          tags,
          querystring: NoParams,
          response: { 200: objectResponse(FieldDictionary), ...errors },
        },
      },
      async (request, reply) => sendObject(request, reply, readCertificateFields(deps, request.query)),
    );

    app.get(
      '/certificates/freshness',
      {
        schema: {
          summary: 'How fresh the certificate data is (to decide whether to re-pull)',
          tags,
          querystring: NoParams,
          response: { 200: objectResponse(FreshnessObject), ...errors },
        },
      },
      async (request, reply) => sendObject(request, reply, await readCertificateFreshness(deps, request.query)),
    );

    app.get(
      '/certificates/:id',
      {
        schema: {
          summary: 'One certificate by id (cert_<id>)',
          tags,
          params: CertificateIdPath,
          querystring: NoParams,
          response: { 200: objectResponse(CertificateRow), 404: ErrorSchema, ...errors },
        },
      },
      async (request, reply) => sendObject(request, reply, await readCertificate(deps, request.params)),
    );
  };
}
