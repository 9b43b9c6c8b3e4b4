import { z } from 'zod';
import { ErrorSchema } from '../envelope.ts';

/**
 * The response entries every route declares, so route.ts stays a list of facts:
 * its 200 (JSON, and CSV for lists) with an example, and the errors of spec 7 in
 * the envelope of spec 2.11, each with the headers of spec 8.6. Extra keys
 * (headers, example) are carried into the document by openapi/convert.ts.
 */

type Header = { type: 'integer' | 'string'; description: string };

const REQUEST_ID: Record<string, Header> = {
  'X-Request-Id': {
    type: 'string',
    description: 'Correlation id of this request (req_<id>), the same as meta.request_id or error.request_id.',
  },
};

/** Spec 8.6: on every answer once the key is known (so not on a 401). */
const RATE_LIMIT: Record<string, Header> = {
  'X-RateLimit-Limit': { type: 'integer', description: "The plan's requests-per-minute cap." },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current 60-second window.' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix time, in seconds, at which the window resets.' },
  RateLimit: { type: 'string', description: 'The same in structured form: "default";r=<remaining>;t=<seconds until the window resets>.' },
};

const RETRY_AFTER: Record<string, Header> = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before the next request is allowed.' },
};

export const CsvText = z
  .string()
  .describe('The same rows as CSV: a header line of the field names in schema order, arrays joined with ";", null as an empty cell.');

const error = (code: string, message: string, details?: Record<string, unknown>) => ({
  error: { code, message, request_id: 'req_7QjW9pMj1gCGx3QC', ...(details ? { details } : {}) },
});

/** Each error status of spec 7: when it happens, and one real answer. */
const ERRORS = {
  400: {
    description: 'A parameter is unknown, malformed or out of range; error.details.issues names each parameter and its problem.',
    example: error('bad_request', 'face_min: Invalid input: expected number, received string', {
      issues: [{ parameter: 'face_min', message: 'Invalid input: expected number, received string' }],
    }),
  },
  401: {
    description:
      'The API key is missing, wrong or revoked, the two key headers disagree, or the account is suspended (one answer for all).',
    example: error('unauthorized', 'Missing or invalid API key.'),
  },
  402: {
    description: 'Free-trial credits are used up; error.details carries the upgrade options.',
    example: error('payment_required', 'Free trial credits are used up. Upgrade to a paid plan or buy a credit pack to continue.', {
      reason: 'trial_credits_exhausted',
    }),
  },
  403: {
    description:
      'The plan does not include this: REST on the MCP-only plan (rest_disabled), CSV (csv_disabled), or webhooks (webhooks_disabled); or, on a write, the client already owns as many of the resource as its plan allows (limit_reached); or a portfolio follows a holder group that has grown past what one portfolio reads (limit_reached).',
    example: error('rest_disabled', 'The mcp_starter plan does not include the REST API.', { plan: 'mcp_starter' }),
  },
  404: { description: 'Nothing has the id or slug given.', example: error('not_found', 'not found') },
  409: {
    description: 'The Idempotency-Key was already used with another request (method, path or body), or its first request is still running.',
    example: error(
      'idempotency_conflict',
      'Idempotency-Key "7b1f0c5e" was already used with another request (method, path or body); use a new key for a new request',
      { idempotency_key: '7b1f0c5e', reason: 'other_request' },
    ),
  },
  413: {
    description: 'The request body is over 64 KiB.',
    example: error('payload_too_large', 'request body too large: a write takes at most 64 KiB of JSON'),
  },
  415: {
    description: 'The request has a body that is not JSON: send it with Content-Type: application/json.',
    example: error('unsupported_media_type', 'unsupported media type: send a JSON body with Content-Type: application/json'),
  },
  410: {
    description:
      'The cursor (after) is older than the events kept: events after it were pruned. Re-read what you need, then follow the feed again without after.',
    example: error(
      'cursor_expired',
      'after=evt_1200 is older than the events kept (90 days): events after it were pruned; re-read what you need, then follow the feed from its oldest event (call without after)',
      { parameter: 'after', oldest_event: 'evt_48211', retention_days: 90 },
    ),
  },
  429: {
    description: 'The per-minute window is full, or the monthly quota is used up where no overage applies; wait Retry-After seconds.',
    example: error('rate_limited', 'Rate limit exceeded. Retry after 42 seconds.'),
  },
  500: {
    description: 'The service failed; retry with backoff.',
    example: error('internal_error', 'internal server error; retry with backoff'),
  },
} as const;

type ErrorStatus = keyof typeof ERRORS;

function errorResponse(status: ErrorStatus, notFound?: string, tooLarge?: { description: string; message: string }) {
  const { description, example } =
    status === 413 && tooLarge
      ? { description: tooLarge.description, example: error('payload_too_large', tooLarge.message) }
      : ERRORS[status];
  const headers =
    status === 401 ? REQUEST_ID : status === 429 ? { ...REQUEST_ID, ...RATE_LIMIT, ...RETRY_AFTER } : { ...REQUEST_ID, ...RATE_LIMIT };
  const shown = status === 404 && notFound ? error('not_found', notFound) : example;
  return { description, headers, content: { 'application/json': { schema: ErrorSchema, example: shown } } };
}

export interface Success {
  schema: z.ZodType;
  example: unknown;
  description: string;
  /** Lists: the CSV answer's example (format=csv or Accept: text/csv). */
  csv?: string;
  /** Certificates: the format=geojson answer (application/geo+json). */
  geojson?: { schema: z.ZodType; example: unknown };
}

export interface Errors {
  /** The example message of a 404, for routes that take an id or slug. */
  notFound?: string;
  /** false for routes that cost no credit, which never answer 402. */
  charged?: boolean;
  /** Routes paged by a cursor that can expire (the change feed): they answer 410 cursor_expired. */
  expiringCursor?: boolean;
}

/** The answers of one /api/v1 operation. */
export function answers(ok: Success, errors: Errors = {}) {
  const statuses: ErrorStatus[] = [400, 401];
  if (errors.charged !== false) statuses.push(402);
  statuses.push(403);
  if (errors.notFound) statuses.push(404);
  if (errors.expiringCursor) statuses.push(410);
  statuses.push(429, 500);
  const content: Record<string, { schema: z.ZodType; example: unknown }> = {
    'application/json': { schema: ok.schema, example: ok.example },
  };
  if (ok.csv !== undefined) content['text/csv'] = { schema: CsvText, example: ok.csv };
  if (ok.geojson !== undefined) content['application/geo+json'] = ok.geojson;
  return {
    200: { description: ok.description, headers: { ...REQUEST_ID, ...RATE_LIMIT }, content },
    ...Object.fromEntries(statuses.map((s) => [s, errorResponse(s, errors.notFound)])),
  };
}

/**
 * The answers of one write (services/api/writes): its 200 or 201, and the errors a write can meet.
 * `tooLarge`: the 413 of a write with a larger body limit than the 64 KiB of the others.
 */
export function writeAnswers(
  ok: Success & { status: 200 | 201 },
  errors: { notFound?: string; tooLarge?: { description: string; message: string } } = {},
) {
  const statuses: ErrorStatus[] = [400, 401, 402, 403];
  if (errors.notFound) statuses.push(404);
  statuses.push(409, 413, 415, 429, 500);
  return {
    [ok.status]: {
      description: ok.description,
      // A replayed answer also carries Idempotent-Replayed: true (said in each write's description,
      // since a documented header is one every answer of the status carries).
      headers: { ...REQUEST_ID, ...RATE_LIMIT },
      content: { 'application/json': { schema: ok.schema, example: ok.example } },
    },
    ...Object.fromEntries(statuses.map((s) => [s, errorResponse(s, errors.notFound, errors.tooLarge)])),
  };
}

/**
 * The answers of an /api/v1 read whose 200 is not JSON but one other media type (a calendar):
 * its text with an example, and the errors of any read.
 */
export function textAnswers(ok: { mediaType: string; schema: z.ZodType; example: string; description: string }, errors: Errors = {}) {
  const json = answers({ schema: ok.schema, example: ok.example, description: ok.description }, errors);
  return { ...json, 200: { ...json[200], content: { [ok.mediaType]: { schema: ok.schema, example: ok.example } } } };
}

/** The answer of a public route (no key, no rate limit). */
export function publicAnswer(schema: z.ZodType, description: string, example?: unknown) {
  return { description, headers: REQUEST_ID, content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } } };
}
