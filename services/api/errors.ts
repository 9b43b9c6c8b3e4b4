/**
 * Errors are typed values carrying a spec error code (section 7). The one error
 * handler in app.ts maps them to a status and writes the envelope; nothing else
 * does, and nothing classifies an error by its message text.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'rest_disabled'
  | 'mcp_disabled'
  | 'csv_disabled'
  | 'not_found'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  rest_disabled: 403,
  mcp_disabled: 403,
  csv_disabled: 403,
  not_found: 404,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Response headers the error carries (Retry-After, the rate-limit headers); app.ts sets them. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('bad_request', message, details);
  }
}
