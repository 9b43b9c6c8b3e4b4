import { z } from 'zod';
import { CERTIFICATE_STATUSES } from '../../../domain/records.ts';
import { listResponse, objectResponse } from '../../envelope.ts';
import { featureCollectionSchema } from '../../geojson.ts';
import { ExpandedCertificateRow } from './row-view.ts';

/**
 * The certificate row of spec 2.2 (schema, columns, stored fields) is the domain's: the
 * ingest renders a changed certificate with it for the change feed. One
 * definition, re-exported here where the route's other shapes live.
 */
export {
  CERTIFICATE_COLUMNS,
  CERTIFICATE_SOURCE,
  type CertificateDocument,
  CertificateRow,
} from '../../../domain/certificate-row.ts';

/** GET /certificates/counts (spec 4.4, 2.10): the scope echoed, and one bucket per status. */
export const CertificateCountsObject = z.object({
  county: z.string().nullable().describe('The county slug counted, or null for all counties.'),
  tax_year: z.number().int().nullable().describe('The tax year counted, or null for all years.'),
  counts: z
    .array(z.object({ status: z.enum(CERTIFICATE_STATUSES), count: z.number().int() }))
    .describe('All seven statuses, zeros included, by count descending (ties by status name).'),
});

/** GET /certificates/freshness (spec 2.8). */
export const FreshnessObject = z.object({
  certificate_count: z.number().int().describe('Certificates searchable now (the unfiltered search total).'),
  latest_tax_year: z.number().int().nullable().describe('Newest tax year present, or null when there are none.'),
  last_ingested_at: z.string().nullable().describe('When certificates were last ingested (ISO-8601), or null.'),
  last_source_success_at: z.string().nullable().describe('Latest successful check of any feed source (ISO-8601), or null.'),
});

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const CertificateSearchList = listResponse(ExpandedCertificateRow, true);
export const CertificateList = listResponse(ExpandedCertificateRow);
export const CertificateResponse = objectResponse(ExpandedCertificateRow);
export const CertificateGeoJsonList = featureCollectionSchema(ExpandedCertificateRow, true);
export const CertificateGeoJson = featureCollectionSchema(ExpandedCertificateRow, false);
export const CertificateCountsResponse = objectResponse(CertificateCountsObject);
export const CertificateFreshnessResponse = objectResponse(FreshnessObject);
