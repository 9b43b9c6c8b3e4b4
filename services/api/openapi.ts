import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema, FacetsSchema, MetaSchema, PaginationSchema } from './envelope.ts';
import { docsBranding } from './openapi/branding.ts';
import { named } from './openapi/components.ts';
import { transform, transformObject } from './openapi/convert.ts';
import { DESCRIPTION, PRODUCT_NAME, TAGS } from './openapi/description.ts';
import { publicAnswer } from './openapi/responses.ts';
import { Usage, UsageResponse } from './routes/account/row.ts';
import { BidRateAnalytics, BidRateAnalyticsResponse } from './routes/analytics/bid-rates/row.ts';
import { HolderGroupList, HolderGroupRow } from './routes/analytics/holders/row.ts';
import {
  DeedEstimateObject,
  DeedEstimateResponse,
  RedemptionQuoteObject,
  RedemptionQuoteResponse,
  TimelineObject,
  TimelineResponse,
} from './routes/certificate-quotes/row.ts';
import { CertificateSaleList, SaleRow } from './routes/certificate-sales/row.ts';
import { CertificateFieldsResponse, FieldDescriptor, FieldDictionary } from './routes/certificates/fields.ts';
import {
  CertificateCountsObject,
  CertificateCountsResponse,
  CertificateFreshnessResponse,
  CertificateList,
  CertificateResponse,
  CertificateRow,
  CertificateSearchList,
  FreshnessObject,
} from './routes/certificates/row.ts';
import { CountyListResponse, CountyResponse, CountyRow } from './routes/counties/row.ts';
import {
  CertificateEvent,
  CertificateSaleEvent,
  CertificatesLoadedEvent,
  CertificatesLoadedObject,
  CountyEvent,
  EventList,
  EventPagination,
  EventRow,
} from './routes/events/row.ts';
import { HealthBody } from './routes/health/row.ts';
import { HolderList, HolderResponse, HolderRow } from './routes/holders/row.ts';
import { LandsAvailableList, LandsRow } from './routes/lands-available/row.ts';
import { SourceList, SourceRow } from './routes/sources/row.ts';
import {
  WebhookAttemptRow,
  WebhookDeliveryList,
  WebhookDeliveryRow,
  WebhookEndpointList,
  WebhookEndpointRow,
} from './routes/webhook-endpoints/row.ts';

/**
 * The OpenAPI 3.1 document is generated from the routes' zod schemas (the same
 * ones that validate requests), never written by hand: the names below go into
 * openapi/components.ts's registry, openapi/responses.ts writes each operation's answers. It is
 * served free of charge outside the /api/v1 scope, and /docs renders it from
 * assets shipped in the package (works offline, no CDN).
 */
export const OPENAPI_PATH = '/api/v1/openapi.json';

// The named schemas (components.schemas), in the order the document lists them. Each shape lives
// beside its route (routes/<resource>/row.ts); naming it here, above the routes, keeps the
// routes from importing a module that imports every route's row.
// Rows and objects: the shapes of spec 2.
named('Certificate', CertificateRow);
named('CertificateSale', SaleRow);
named('Holder', HolderRow);
named('LandsAvailable', LandsRow);
named('County', CountyRow);
named('Source', SourceRow);
named('Usage', Usage);
named('CertificateCounts', CertificateCountsObject);
named('CertificateFreshness', FreshnessObject);
named('FieldDescriptor', FieldDescriptor);
named('CertificateFields', FieldDictionary);
named('Health', HealthBody);

// The envelopes of spec 2.1 and 2.11.
named('Meta', MetaSchema);
named('Pagination', PaginationSchema);
named('Facets', FacetsSchema);
named('Error', ErrorSchema);

// Search answers with facets when asked; by-parcel never has them.
named('CertificateSearchList', CertificateSearchList);
named('CertificateList', CertificateList);
named('CertificateResponse', CertificateResponse);
named('CertificateCountsResponse', CertificateCountsResponse);
named('CertificateFieldsResponse', CertificateFieldsResponse);
named('CertificateFreshnessResponse', CertificateFreshnessResponse);
named('CertificateSaleList', CertificateSaleList);
named('HolderList', HolderList);
named('HolderResponse', HolderResponse);
named('LandsAvailableList', LandsAvailableList);
named('CountyListResponse', CountyListResponse);
named('CountyResponse', CountyResponse);
named('SourceList', SourceList);
named('UsageResponse', UsageResponse);
// Holder groups (issue 18 item 5).
named('HolderGroup', HolderGroupRow);
named('HolderGroupList', HolderGroupList);

// Issue 18 items 1-3: the per-certificate answers.
named('RedemptionQuote', RedemptionQuoteObject);
named('RedemptionQuoteResponse', RedemptionQuoteResponse);
named('CertificateTimeline', TimelineObject);
named('CertificateTimelineResponse', TimelineResponse);
named('DeedEstimate', DeedEstimateObject);
named('DeedEstimateResponse', DeedEstimateResponse);
// Issue 18 item 4: bid-rate analytics.
named('BidRateAnalytics', BidRateAnalytics);
named('BidRateAnalyticsResponse', BidRateAnalyticsResponse);

// Issue 20: the change feed, one named shape per kind of event.
named('CertificateEvent', CertificateEvent);
named('CertificatesLoaded', CertificatesLoadedObject);
named('CertificatesLoadedEvent', CertificatesLoadedEvent);
named('CertificateSaleEvent', CertificateSaleEvent);
named('CountyEvent', CountyEvent);
named('Event', EventRow);
named('EventPagination', EventPagination);
named('EventList', EventList);
// Issue 20: a client's webhook endpoints and their deliveries (never a signing secret).
named('WebhookEndpoint', WebhookEndpointRow);
named('WebhookAttempt', WebhookAttemptRow);
named('WebhookDelivery', WebhookDeliveryRow);
named('WebhookEndpointList', WebhookEndpointList);
named('WebhookDeliveryList', WebhookDeliveryList);

/** The served document itself: any JSON object (its own schema is OpenAPI 3.1's). */
const OpenApiDocument = named(
  'OpenApiDocument',
  z.looseObject({ openapi: z.string() }).describe('An OpenAPI 3.1 document.'),
);

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: PRODUCT_NAME,
        version: '1.0.0',
        description: DESCRIPTION,
        contact: { name: `${PRODUCT_NAME} support` },
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (preferred).' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <API key>.' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    ...docsBranding,
    // The page shows and loads the document at the address the README and clients use; the
    // plugin's own copy at /docs/json is the same document (app.swagger()).
    uiConfig: { ...docsBranding.uiConfig, urls: [{ url: OPENAPI_PATH, name: OPENAPI_PATH }] },
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    OPENAPI_PATH,
    {
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI document',
        description: 'The OpenAPI 3.1 document of the REST API, generated from the schemas that validate requests. Free, no API key needed.',
        tags: ['service'],
        security: [],
        response: { 200: publicAnswer(OpenApiDocument, 'The OpenAPI 3.1 document.') },
      },
    },
    async () => app.swagger() as never,
  );
}
