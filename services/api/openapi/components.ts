import { z } from 'zod';
import { ErrorSchema, FacetsSchema, listResponse, MetaSchema, objectResponse, PaginationSchema } from '../envelope.ts';
import { Usage } from '../routes/account/row.ts';
import { BidRateAnalytics } from '../routes/analytics/bid-rates/row.ts';
import { SaleRow } from '../routes/certificate-sales/row.ts';
import { FieldDescriptor, FieldDictionary } from '../routes/certificates/fields.ts';
import { CertificateCountsObject, CertificateRow, FreshnessObject } from '../routes/certificates/row.ts';
import { DeedEstimateObject, RedemptionQuoteObject, TimelineObject } from '../routes/certificate-quotes/row.ts';
import { CountyRow } from '../routes/counties/row.ts';
import {
  CertificateEvent,
  CertificateSaleEvent,
  CertificatesLoadedEvent,
  CertificatesLoadedObject,
  CountyEvent,
  EventList,
  EventPagination,
  EventRow,
} from '../routes/events/row.ts';
import { HealthBody } from '../routes/health/row.ts';
import { HolderRow } from '../routes/holders/row.ts';
import { HolderGroupRow } from '../routes/analytics/holders/row.ts';
import { LandsRow } from '../routes/lands-available/row.ts';
import { SourceRow } from '../routes/sources/row.ts';
import { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../routes/webhook-endpoints/row.ts';

/**
 * The named schemas of the OpenAPI document (components.schemas), so a generated
 * client can import Certificate, CertificateList, Error, ... by name.
 *
 * They live in a registry of their own rather than zod's global one: the MCP
 * tools and the field dictionary convert the same row schemas with
 * z.toJSONSchema, which would turn every globally named schema into a $ref and
 * change what they publish. Descriptions stay in the global registry (.describe())
 * and are merged back by the document's converter (openapi/convert.ts).
 */
export const openApiRegistry = z.registry<{ id: string }>();
/** Every id given out, in order. */
export const NAMED_SCHEMAS = new Set<string>();

function named<T extends z.ZodType>(id: string, schema: T): T {
  openApiRegistry.add(schema, { id });
  NAMED_SCHEMAS.add(id);
  return schema;
}

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
export const Health = named('Health', HealthBody);

// The envelopes of spec 2.1 and 2.11.
named('Meta', MetaSchema);
named('Pagination', PaginationSchema);
named('Facets', FacetsSchema);
export const ErrorEnvelope = named('Error', ErrorSchema);

/** Search answers with facets when asked; by-parcel never has them. */
export const CertificateSearchList = named('CertificateSearchList', listResponse(CertificateRow, true));
export const CertificateList = named('CertificateList', listResponse(CertificateRow));
export const CertificateResponse = named('CertificateResponse', objectResponse(CertificateRow));
export const CertificateCountsResponse = named('CertificateCountsResponse', objectResponse(CertificateCountsObject));
export const CertificateFieldsResponse = named('CertificateFieldsResponse', objectResponse(FieldDictionary));
export const CertificateFreshnessResponse = named('CertificateFreshnessResponse', objectResponse(FreshnessObject));
export const CertificateSaleList = named('CertificateSaleList', listResponse(SaleRow));
export const HolderList = named('HolderList', listResponse(HolderRow));
export const HolderResponse = named('HolderResponse', objectResponse(HolderRow));
export const LandsAvailableList = named('LandsAvailableList', listResponse(LandsRow));
export const CountyListResponse = named('CountyListResponse', objectResponse(z.array(CountyRow)));
export const CountyResponse = named('CountyResponse', objectResponse(CountyRow));
export const SourceList = named('SourceList', listResponse(SourceRow));
export const UsageResponse = named('UsageResponse', objectResponse(Usage));
// Holder groups.
named('HolderGroup', HolderGroupRow);
export const HolderGroupList = named('HolderGroupList', listResponse(HolderGroupRow));

// The per-certificate answers: redemption quote, timeline, deed estimate.
export const RedemptionQuoteResponse = named('RedemptionQuoteResponse', objectResponse(named('RedemptionQuote', RedemptionQuoteObject)));
export const TimelineResponse = named('CertificateTimelineResponse', objectResponse(named('CertificateTimeline', TimelineObject)));
export const DeedEstimateResponse = named('DeedEstimateResponse', objectResponse(named('DeedEstimate', DeedEstimateObject)));
// Bid-rate analytics.
named('BidRateAnalytics', BidRateAnalytics);
export const BidRateAnalyticsResponse = named('BidRateAnalyticsResponse', objectResponse(BidRateAnalytics));

// The change feed, one named shape per kind of event.
named('CertificateEvent', CertificateEvent);
named('CertificatesLoaded', CertificatesLoadedObject);
named('CertificatesLoadedEvent', CertificatesLoadedEvent);
named('CertificateSaleEvent', CertificateSaleEvent);
named('CountyEvent', CountyEvent);
named('Event', EventRow);
named('EventPagination', EventPagination);
export const EventListResponse = named('EventList', EventList);
// A client's webhook endpoints and their deliveries (never a signing secret).
named('WebhookEndpoint', WebhookEndpointRow);
named('WebhookAttempt', WebhookAttemptRow);
named('WebhookDelivery', WebhookDeliveryRow);
export const WebhookEndpointList = named('WebhookEndpointList', listResponse(WebhookEndpointRow));
export const WebhookDeliveryList = named('WebhookDeliveryList', listResponse(WebhookDeliveryRow));

/** The served document itself: any JSON object (its own schema is OpenAPI 3.1's). */
export const OpenApiDocument = named(
  'OpenApiDocument',
  z.looseObject({ openapi: z.string() }).describe('An OpenAPI 3.1 document.'),
);
