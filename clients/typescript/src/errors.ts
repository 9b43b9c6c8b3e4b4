/**
 * Every refusal of the API as one typed error. The envelope is { error: { code, message,
 * request_id, details? } }; `code` is what to branch on (the message is for people and may change).
 */

/** The API's error codes (a test keeps this list equal to the server's). */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'payment_required',
  'csv_disabled',
  'mcp_disabled',
  'webhooks_disabled',
  'limit_reached',
  'rest_disabled',
  'not_found',
  'method_not_allowed',
  'idempotency_conflict',
  'cursor_expired',
  'not_acceptable',
  'payload_too_large',
  'unsupported_media_type',
  'range_not_satisfiable',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;

/**
 * What a TaxcertApiError's code can be: the API's codes; `http_error` for a status without the
 * API's envelope (a proxy's 502, a gateway's 504); an unknown future code still arrives as a string.
 */
export type ErrorCode = (typeof ERROR_CODES)[number] | 'http_error' | (string & {});

export class TaxcertApiError extends Error {
  override readonly name = 'TaxcertApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The request's correlation id (req_<id>), from the body or the X-Request-Id header; quote it to support. */
    readonly request_id: string | null,
    readonly details: Record<string, unknown> | undefined,
    /** Retry-After of the answer in milliseconds, when it had one. */
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** The request never got an answer: the connection failed, or the attempt ran past the client's timeout. */
export class TaxcertNetworkError extends Error {
  override readonly name = 'TaxcertNetworkError';
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `err` is the API's refusal with this code (narrowing the code's type). */
export function isApiError<C extends ErrorCode>(err: unknown, code?: C): err is TaxcertApiError & { code: C } {
  return err instanceof TaxcertApiError && (code === undefined || err.code === code);
}

interface Envelope {
  error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown };
}

/** The error an answer of `status` carries: the envelope's fields, else what the status and headers say. */
export function errorFromAnswer(status: number, headers: Headers, text: string, retryAfterMs: number | null): TaxcertApiError {
  let body: Envelope | undefined;
  try {
    body = JSON.parse(text) as Envelope;
  } catch {
    body = undefined;
  }
  const e = body?.error;
  const header = headers.get('x-request-id');
  if (e && typeof e.code === 'string')
    return new TaxcertApiError(
      status,
      e.code,
      typeof e.message === 'string' ? e.message : `HTTP ${status}`,
      typeof e.request_id === 'string' ? e.request_id : header,
      e.details && typeof e.details === 'object' ? (e.details as Record<string, unknown>) : undefined,
      retryAfterMs,
    );
  return new TaxcertApiError(
    status,
    'http_error',
    `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`,
    header,
    undefined,
    retryAfterMs,
  );
}
