import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { toCsv } from '../../../formats/api-csv.ts';
import { examples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { sendObject } from '../../reply.ts';
import {
  ByParcelParams,
  CertificateIdPath,
  CertificateSearchParams,
  CertificateView,
  CountsParams,
  GeoGridParams,
  NoParams,
} from './params.ts';
import { sendCertificates } from './send.ts';
import { GEO_GRID_MAX_CELLS } from './build-geo-grid.ts';
import { GeoGridResponse } from './geo-grid-row.ts';
import { readGeoGrid } from './read-geo-grid.ts';
import { readByParcel, readCertificate, readCertificateSearch } from './read.ts';
import { readCertificateFields, readCertificateFreshness, readCounts } from './read-stats.ts';
import { CertificateFieldsResponse } from './fields.ts';
import {
  CERTIFICATE_COLUMNS,
  CertificateCountsResponse,
  CertificateFreshnessResponse,
  CertificateGeoJson,
  CertificateGeoJsonList,
  CertificateList,
  CertificateResponse,
  CertificateSearchList,
} from './row.ts';

/** The CSV answers' example (search and by-parcel): the search example's rows, written by the same writer as the real ones. */
const csvExample = toCsv([...CERTIFICATE_COLUMNS], examples.certificateList.data);

/**
 * Every /certificates route. The fixed paths (search, by-parcel, counts, fields,
 * freshness) are static routes, which the router always prefers over /:id, so
 * none of them is ever read as an id.
 */
export function certificatesRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['certificates'];

    app.get(
      '/certificates/search',
      {
        schema: {
          operationId: 'searchCertificates',
          summary: 'Search certificates: free text, filters, sorts and facets',
          description:
            'Certificates matching every filter given, sorted, one page at a time (limit 1-500, any offset; pagination.total is exact). facets= adds counts per value over the whole filtered result.',
          tags,
          querystring: CertificateSearchParams,
          response: answers({
            schema: CertificateSearchList,
            description: 'One page of certificates.',
            example: examples.certificateList,
            csv: csvExample,
            geojson: { schema: CertificateGeoJsonList, example: examples.certificateFeatures },
          }),
        },
      },
      async (request, reply) => sendCertificates(request, reply, await readCertificateSearch(deps, request.query), request.query.expand),
    );

    app.get(
      '/certificates/by-parcel',
      {
        schema: {
          operationId: 'getCertificatesByParcel',
          summary: 'Every certificate of one parcel, all tax years, newest first',
          description: 'county and parcel_id are required. A parcel with no certificates is an empty list, not a 404.',
          tags,
          querystring: ByParcelParams,
          response: answers({
            schema: CertificateList,
            description: "The parcel's certificates, newest tax year first.",
            example: examples.certificatesByParcel,
            csv: csvExample,
            geojson: { schema: CertificateGeoJsonList, example: examples.certificateFeatures },
          }),
        },
      },
      async (request, reply) => sendCertificates(request, reply, await readByParcel(deps, request.query), request.query.expand),
    );

    app.get(
      '/certificates/counts',
      {
        schema: {
          operationId: 'getCertificateCounts',
          summary: 'Certificate counts per status, optionally for one county and tax year and within map and parcel filters',
          description:
            'All seven statuses with their counts, zeros included, for all certificates or for one county and/or one tax year, within the bid-rate, map and parcel-roll filters of search when given.',
          tags,
          querystring: CountsParams,
          response: answers({ schema: CertificateCountsResponse, description: 'Counts per status.', example: examples.certificateCounts }),
        },
      },
      async (request, reply) => sendObject(request, reply, await readCounts(deps, request.query)),
    );

    app.get(
      '/certificates/geo-grid',
      {
        schema: {
          operationId: 'getCertificateGeoGrid',
          summary: 'Map cells: certificates within the search filters counted per web map tile',
          description: `Every non-empty tile z/x/y at zoom (0-18) with its bounds, the certificates in it and the sum of their face amounts, within the same filters as search (query, county, map area, parcel roll, ...). Exact: the cells' counts add up to located, the certificates within the filters that have a location (one without a parcel row is in no cell). At most ${GEO_GRID_MAX_CELLS.toLocaleString('en-US')} cells: more is a 400 naming zoom, never a partial map.`,
          tags,
          querystring: GeoGridParams,
          response: answers({ schema: GeoGridResponse, description: 'The map cells.', example: examples.certificateGeoGrid }),
        },
      },
      async (request, reply) => sendObject(request, reply, await readGeoGrid(deps, request.query)),
    );

    app.get(
      '/certificates/fields',
      {
        schema: {
          operationId: 'getCertificateFields',
          summary: 'The certificate field dictionary',
          description: 'Every field of a certificate row in order, with its type, meaning and, for enumerated fields, the values.',
          tags,
          querystring: NoParams,
          response: answers({
            schema: CertificateFieldsResponse,
            description: 'The field dictionary.',
            example: examples.certificateFields,
          }),
        },
      },
      async (request, reply) => sendObject(request, reply, readCertificateFields(deps, request.query)),
    );

    app.get(
      '/certificates/freshness',
      {
        schema: {
          operationId: 'getCertificateFreshness',
          summary: 'How fresh the certificate data is (to decide whether to re-pull)',
          description:
            'How many certificates are searchable, the newest tax year, and when data was last ingested and a source last succeeded.',
          tags,
          querystring: NoParams,
          response: answers({
            schema: CertificateFreshnessResponse,
            description: 'Freshness figures.',
            example: examples.certificateFreshness,
          }),
        },
      },
      async (request, reply) => sendObject(request, reply, await readCertificateFreshness(deps, request.query)),
    );

    app.get(
      '/certificates/:id',
      {
        schema: {
          operationId: 'getCertificate',
          summary: 'One certificate by id (cert_<id>)',
          description: 'The certificate with this id, as search returns it.',
          tags,
          params: CertificateIdPath,
          querystring: CertificateView,
          response: answers(
            {
              schema: CertificateResponse,
              description: 'The certificate.',
              example: examples.certificate,
              geojson: {
                schema: CertificateGeoJson,
                example: {
                  type: 'FeatureCollection',
                  features: [examples.certificateFeatures.features[0]],
                  meta: examples.certificate.meta,
                },
              },
            },
            {
              notFound: 'no certificate has the id "cert_00000000000000000000"; certificate ids look like cert_ followed by 20 hex digits',
            },
          ),
        },
      },
      async (request, reply) => sendObject(request, reply, await readCertificate(deps, { ...request.params, ...request.query })),
    );
  };
}
