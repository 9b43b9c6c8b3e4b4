import { ErrorSchema, FacetsSchema, MetaSchema, PaginationSchema } from '../envelope.ts';
import { named, OpenApiDocument } from '../openapi/components.ts';
import { Usage, UsageResponse } from './account/row.ts';
import { BidRateAnalytics, BidRateAnalyticsResponse } from './analytics/bid-rates/row.ts';
import { HolderGroupList, HolderGroupRow } from './analytics/holders/row.ts';
import { ExpectedYield, ExpectedYieldResponse, RedemptionCurve, RedemptionCurveResponse } from './analytics/redemption/row.ts';
import {
  DeedEstimateObject,
  DeedEstimateResponse,
  RedemptionQuoteObject,
  RedemptionQuoteResponse,
  TimelineObject,
  TimelineResponse,
} from './certificate-quotes/row.ts';
import { CertificateSaleList, SaleRow } from './certificate-sales/row.ts';
import { CertificateFieldsResponse, FieldDescriptor, FieldDictionary } from './certificates/fields.ts';
import {
  CertificateCountsObject,
  CertificateCountsResponse,
  CertificateFreshnessResponse,
  CertificateGeoJson,
  CertificateGeoJsonList,
  CertificateList,
  CertificateResponse,
  CertificateRow,
  CertificateSearchList,
  FreshnessObject,
} from './certificates/row.ts';
import { ExpandedCertificateRow } from './certificates/row-view.ts';
import { GeoGridCell, GeoGridObject, GeoGridResponse } from './certificates/geo-grid-row.ts';
import { ParcelFacts } from '../../domain/parcel-facts.ts';
import { CountyListResponse, CountyResponse, CountyRow } from './counties/row.ts';
import {
  CertificateEvent,
  CertificateSaleEvent,
  CertificatesLoadedEvent,
  CertificatesLoadedObject,
  CountyEvent,
  EventList,
  EventPagination,
  EventRow,
} from './events/row.ts';
import { HealthBody } from './health/row.ts';
import { HolderList, HolderResponse, HolderRow } from './holders/row.ts';
import { LandsAvailableList, LandsRow } from './lands-available/row.ts';
import { PositionList as PositionAnswerList, PositionRow as PositionAnswer } from './portfolios/position-row.ts';
import { PortfolioList, PortfolioResponse, PortfolioRow, PositionRow, PositionsReport, PositionsReportResponse } from './portfolios/row.ts';
import { PortfolioSummary, PortfolioSummaryResponse } from './portfolios/summary-row.ts';
import { CalendarAddressResponse, CalendarAddressRow } from './portfolios/calendar-row.ts';
import { SavedSearchList, SavedSearchResponse, SavedSearchRow } from './saved-searches/row.ts';
import { SourceList, SourceRow } from './sources/row.ts';
import { BulkFile, BulkFileList } from './bulk/row.ts';
import {
  WebhookAttemptRow,
  WebhookDeliveryList,
  WebhookDeliveryRow,
  WebhookEndpointList,
  WebhookEndpointResponse,
  WebhookEndpointRow,
  WebhookEndpointSecretResponse,
  WebhookEndpointWithSecret,
} from './webhook-endpoints/row.ts';
import { DeletedObject, DeletedResponse } from '../writes/schemas.ts';

/**
 * Every schema the OpenAPI document names (components.schemas, so a generated client can import
 * Certificate, CertificateList, Error, ... by name), in the order the document lists them. Naming
 * happens when this module is first imported (app.ts imports it beside the document's plugin).
 * Each shape lives beside its route (<resource>/row.ts); naming them here, above every route,
 * keeps the routes from importing a module that imports every route's row.
 */

// Rows and objects: the shapes of spec 2.
named('Certificate', CertificateRow);
named('ParcelFacts', ParcelFacts);
named('CertificateView', ExpandedCertificateRow);
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
named('CertificateFeatureCollection', CertificateGeoJsonList);
named('CertificateByIdFeatureCollection', CertificateGeoJson);
named('GeoGridCell', GeoGridCell);
named('CertificateGeoGrid', GeoGridObject);
named('CertificateGeoGridResponse', GeoGridResponse);
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
named('BulkFile', BulkFile);
named('BulkFileList', BulkFileList);
named('UsageResponse', UsageResponse);
// Holder groups.
named('HolderGroup', HolderGroupRow);
named('HolderGroupList', HolderGroupList);

// The per-certificate answers: redemption quote, timeline, deed estimate.
named('RedemptionQuote', RedemptionQuoteObject);
named('RedemptionQuoteResponse', RedemptionQuoteResponse);
named('CertificateTimeline', TimelineObject);
named('CertificateTimelineResponse', TimelineResponse);
named('DeedEstimate', DeedEstimateObject);
named('DeedEstimateResponse', DeedEstimateResponse);
// Bid-rate analytics.
named('BidRateAnalytics', BidRateAnalytics);
named('BidRateAnalyticsResponse', BidRateAnalyticsResponse);
// Redemption curves and expected yield.
named('RedemptionCurve', RedemptionCurve);
named('RedemptionCurveResponse', RedemptionCurveResponse);
named('ExpectedYield', ExpectedYield);
named('ExpectedYieldResponse', ExpectedYieldResponse);

// The change feed, one named shape per kind of event.
named('CertificateEvent', CertificateEvent);
named('CertificatesLoaded', CertificatesLoadedObject);
named('CertificatesLoadedEvent', CertificatesLoadedEvent);
named('CertificateSaleEvent', CertificateSaleEvent);
named('CountyEvent', CountyEvent);
named('Event', EventRow);
named('EventPagination', EventPagination);
named('EventList', EventList);
// A client's webhook endpoints and their deliveries (never a signing secret).
named('WebhookEndpoint', WebhookEndpointRow);
named('WebhookAttempt', WebhookAttemptRow);
named('WebhookDelivery', WebhookDeliveryRow);
named('WebhookEndpointList', WebhookEndpointList);
named('WebhookDeliveryList', WebhookDeliveryList);
named('WebhookEndpointResponse', WebhookEndpointResponse);
named('WebhookEndpointWithSecret', WebhookEndpointWithSecret);
named('WebhookEndpointSecretResponse', WebhookEndpointSecretResponse);
// The writes' shared answer (services/api/writes).
named('Deleted', DeletedObject);
named('DeletedResponse', DeletedResponse);
// A client's saved searches (their matches answer CertificateSearchList).
named('SavedSearch', SavedSearchRow);
named('SavedSearchList', SavedSearchList);
named('SavedSearchResponse', SavedSearchResponse);
// A client's portfolios and the per-line report of adding positions.
named('Portfolio', PortfolioRow);
named('PortfolioList', PortfolioList);
named('PortfolioResponse', PortfolioResponse);
named('PortfolioPosition', PositionRow);
named('PortfolioPositionsReport', PositionsReport);
named('PortfolioPositionsReportResponse', PositionsReportResponse);
// A portfolio read as of a day: its positions and its summary.
named('PortfolioPositionAnswer', PositionAnswer);
named('PortfolioPositionAnswerList', PositionAnswerList);
named('PortfolioSummary', PortfolioSummary);
named('PortfolioSummaryResponse', PortfolioSummaryResponse);
// A portfolio's secret calendar address, as its creation answers it.
named('PortfolioCalendarAddress', CalendarAddressRow);
named('PortfolioCalendarAddressResponse', CalendarAddressResponse);

// The served document itself.
named('OpenApiDocument', OpenApiDocument);
