// Generated from the served OpenAPI document by `npm run clients:write`: do not edit by hand.
import type { operations } from './schema.ts';

export interface OperationInfo {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: readonly string[];
}

export const OPERATIONS = {
  addPortfolioPositions: { method: 'POST', path: '/api/v1/portfolios/{id}/positions', pathParams: ['id'] },
  createPortfolio: { method: 'POST', path: '/api/v1/portfolios', pathParams: [] },
  createPortfolioCalendarAddress: { method: 'POST', path: '/api/v1/portfolios/{id}/calendar-address', pathParams: ['id'] },
  createSavedSearch: { method: 'POST', path: '/api/v1/saved-searches', pathParams: [] },
  createWebhookEndpoint: { method: 'POST', path: '/api/v1/webhook-endpoints', pathParams: [] },
  deletePortfolio: { method: 'DELETE', path: '/api/v1/portfolios/{id}', pathParams: ['id'] },
  deletePortfolioCalendarAddress: { method: 'DELETE', path: '/api/v1/portfolios/{id}/calendar-address', pathParams: ['id'] },
  deletePortfolioPosition: { method: 'DELETE', path: '/api/v1/portfolios/{id}/positions/{position_id}', pathParams: ['id', 'position_id'] },
  deleteSavedSearch: { method: 'DELETE', path: '/api/v1/saved-searches/{id}', pathParams: ['id'] },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/api/v1/webhook-endpoints/{id}', pathParams: ['id'] },
  downloadBulkFile: { method: 'GET', path: '/api/v1/bulk/files/{name}', pathParams: ['name'] },
  getBidRateAnalytics: { method: 'GET', path: '/api/v1/analytics/bid-rates', pathParams: [] },
  getCalendarByAddress: { method: 'GET', path: '/calendar/{token}.ics', pathParams: ['token'] },
  getCertificate: { method: 'GET', path: '/api/v1/certificates/{id}', pathParams: ['id'] },
  getCertificateCounts: { method: 'GET', path: '/api/v1/certificates/counts', pathParams: [] },
  getCertificateFields: { method: 'GET', path: '/api/v1/certificates/fields', pathParams: [] },
  getCertificateFreshness: { method: 'GET', path: '/api/v1/certificates/freshness', pathParams: [] },
  getCertificateGeoGrid: { method: 'GET', path: '/api/v1/certificates/geo-grid', pathParams: [] },
  getCertificateTimeline: { method: 'GET', path: '/api/v1/certificates/{id}/timeline', pathParams: ['id'] },
  getCertificatesByParcel: { method: 'GET', path: '/api/v1/certificates/by-parcel', pathParams: [] },
  getCounty: { method: 'GET', path: '/api/v1/counties/{county}', pathParams: ['county'] },
  getCountySources: { method: 'GET', path: '/api/v1/sources/{county}', pathParams: ['county'] },
  getDeedEstimate: { method: 'GET', path: '/api/v1/certificates/{id}/deed-estimate', pathParams: ['id'] },
  getExpectedYield: { method: 'GET', path: '/api/v1/analytics/expected-yield', pathParams: [] },
  getHealth: { method: 'GET', path: '/healthz', pathParams: [] },
  getHolder: { method: 'GET', path: '/api/v1/holders/{id}', pathParams: ['id'] },
  getOpenApiDocument: { method: 'GET', path: '/api/v1/openapi.json', pathParams: [] },
  getPortfolio: { method: 'GET', path: '/api/v1/portfolios/{id}', pathParams: ['id'] },
  getPortfolioCalendar: { method: 'GET', path: '/api/v1/portfolios/{id}/calendar.ics', pathParams: ['id'] },
  getPortfolioSummary: { method: 'GET', path: '/api/v1/portfolios/{id}/summary', pathParams: ['id'] },
  getRedemptionCurve: { method: 'GET', path: '/api/v1/analytics/redemption-curve', pathParams: [] },
  getRedemptionQuote: { method: 'GET', path: '/api/v1/certificates/{id}/redemption', pathParams: ['id'] },
  getSavedSearch: { method: 'GET', path: '/api/v1/saved-searches/{id}', pathParams: ['id'] },
  getUsage: { method: 'GET', path: '/api/v1/account/usage', pathParams: [] },
  getWebhookEndpoint: { method: 'GET', path: '/api/v1/webhook-endpoints/{id}', pathParams: ['id'] },
  listBulkFiles: { method: 'GET', path: '/api/v1/bulk/files', pathParams: [] },
  listCounties: { method: 'GET', path: '/api/v1/counties', pathParams: [] },
  listEvents: { method: 'GET', path: '/api/v1/events', pathParams: [] },
  listPortfolioPositions: { method: 'GET', path: '/api/v1/portfolios/{id}/positions', pathParams: ['id'] },
  listPortfolios: { method: 'GET', path: '/api/v1/portfolios', pathParams: [] },
  listSavedSearchMatches: { method: 'GET', path: '/api/v1/saved-searches/{id}/matches', pathParams: ['id'] },
  listSavedSearches: { method: 'GET', path: '/api/v1/saved-searches', pathParams: [] },
  listSources: { method: 'GET', path: '/api/v1/sources', pathParams: [] },
  listWebhookDeliveries: { method: 'GET', path: '/api/v1/webhook-endpoints/{id}/deliveries', pathParams: ['id'] },
  listWebhookEndpoints: { method: 'GET', path: '/api/v1/webhook-endpoints', pathParams: [] },
  rotateWebhookEndpointSecret: { method: 'POST', path: '/api/v1/webhook-endpoints/{id}/rotate-secret', pathParams: ['id'] },
  searchCertificateSales: { method: 'GET', path: '/api/v1/certificate-sales/search', pathParams: [] },
  searchCertificates: { method: 'GET', path: '/api/v1/certificates/search', pathParams: [] },
  searchHolderGroups: { method: 'GET', path: '/api/v1/analytics/holders', pathParams: [] },
  searchHolders: { method: 'GET', path: '/api/v1/holders/search', pathParams: [] },
  searchLandsAvailable: { method: 'GET', path: '/api/v1/lands-available/search', pathParams: [] },
  updatePortfolio: { method: 'PATCH', path: '/api/v1/portfolios/{id}', pathParams: ['id'] },
  updateSavedSearch: { method: 'PATCH', path: '/api/v1/saved-searches/{id}', pathParams: ['id'] },
  updateWebhookEndpoint: { method: 'PATCH', path: '/api/v1/webhook-endpoints/{id}', pathParams: ['id'] },
} as const satisfies Record<keyof operations, OperationInfo>;

export type OperationId = keyof typeof OPERATIONS;
