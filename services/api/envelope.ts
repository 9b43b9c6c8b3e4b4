import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';

/** The response shapes of spec 2.1 and 2.11; route handlers build bodies only through these. */

export interface Meta {
  request_id: string;
  dataset_status: 'live';
  coverage?: { status: 'not_yet_ingested' };
}

export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  has_more: boolean;
}

/** A facet: every value with a non-zero count, most frequent first, written as its filter accepts it. */
export interface FacetBucket {
  value: string | number | boolean;
  count: number;
  /** Only where the value is an id (a holder group): its name, for people. */
  label?: string;
}

/** What a read function returns for a list; the same object feeds REST and MCP. */
export interface ListResult<T> {
  rows: T[];
  limit: number;
  offset: number;
  total: number;
  facets?: Record<string, FacetBucket[]>;
  /** True while the dataset holds no documents at all (spec 4.8, 4.9). */
  notYetIngested?: boolean;
  /** A list paged by cursor (the change feed): pagination.next_after, the cursor of the next call. */
  nextAfter?: string | null;
  /** Only for a GeoJSON answer: each row's point (null without one), in the rows' order. */
  points?: (GeoPoint | null)[];
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface ObjectResult<T> {
  data: T;
  notYetIngested?: boolean;
  /** Only for a GeoJSON answer: the object's point, or null without one. */
  point?: GeoPoint | null;
}

export function meta(requestId: string, notYetIngested = false): Meta {
  return notYetIngested
    ? { request_id: requestId, dataset_status: 'live', coverage: { status: 'not_yet_ingested' } }
    : { request_id: requestId, dataset_status: 'live' };
}

export function objectEnvelope<T>(result: ObjectResult<T>, requestId: string) {
  return { data: result.data, meta: meta(requestId, result.notYetIngested) };
}

export function listEnvelope<T>(result: ListResult<T>, requestId: string) {
  const { rows, limit, offset, total } = result;
  return {
    data: rows,
    pagination: {
      limit,
      offset,
      total,
      has_more: offset + rows.length < total,
      ...(result.nextAfter !== undefined ? { next_after: result.nextAfter } : {}),
    },
    ...(result.facets ? { facets: result.facets } : {}),
    meta: meta(requestId, result.notYetIngested),
  };
}

export function errorEnvelope(code: string, message: string, requestId: string, details?: Record<string, unknown>) {
  return { error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
}

// Response schemas for the OpenAPI document, built from each resource's row schema.

export const MetaSchema = z.object({
  request_id: z.string().regex(/^req_/).describe('Correlation id, also sent as the X-Request-Id header.'),
  dataset_status: z.literal('live'),
  coverage: z
    .object({ status: z.literal('not_yet_ingested') })
    .optional()
    .describe('Present only while the dataset holds no documents (holders and lands-available today).'),
});

export const PaginationSchema = z.object({
  limit: z.number().int().describe('Page size applied.'),
  offset: z.number().int().describe('Rows skipped before this page.'),
  total: z.number().int().describe('Exact total of matching rows, at any size.'),
  has_more: z.boolean().describe('True when rows exist beyond this page (offset + rows on this page < total).'),
});

export const FacetsSchema = z
  .record(
    z.string(),
    z.array(
      z.object({
        value: z.union([z.string(), z.number(), z.boolean()]),
        count: z.number().int(),
        label: z.string().optional().describe("Only where the value is an id (holder_group): the group's name, for people."),
      }),
    ),
  )
  .describe(
    'Only when facets= was asked for: per field, every value with its count, most frequent first (holder_group: the 25 largest groups, each with its label).',
  );

export function listResponse<T extends z.ZodType>(row: T, withFacets = false) {
  return z.object({
    data: z.array(row),
    pagination: PaginationSchema,
    ...(withFacets ? { facets: FacetsSchema.optional() } : {}),
    meta: MetaSchema,
  });
}

export function objectResponse<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: MetaSchema });
}

export const ErrorSchema = z.object({
  error: z.object({
    // A string, not an enum: a client generated today must still read a code added later.
    code: z.string().describe(`What went wrong, for code to branch on: ${ERROR_CODES.join(', ')}.`),
    message: z.string().describe('What went wrong and what to do, for people; never parse it.'),
    request_id: z.string().describe('Correlation id (req_<id>), also sent as the X-Request-Id header; quote it to support.'),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Structured detail: issues (one per bad parameter) on a 400, the upgrade options on a 402, reason and reset_date on a monthly-quota 429.',
      ),
  }),
});
