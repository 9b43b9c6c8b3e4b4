/**
 * Errors are typed values carrying a spec error code (section 7). The one error
 * handler in app.ts maps them to a status and writes the envelope; nothing else
 * does, and nothing classifies an error by its message text.
 */
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

export type ErrorCode = (typeof ERROR_CODES)[number];

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  // Plan features (services/api/access); rest_disabled stays last so a bare 403 maps to it.
  csv_disabled: 403,
  mcp_disabled: 403,
  webhooks_disabled: 403,
  // A client owns as many of a writable resource as its plan allows (services/api/writes/limits.ts).
  limit_reached: 403,
  rest_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  // An Idempotency-Key reused with another request, or while its first request still runs.
  idempotency_conflict: 409,
  // The change feed: a cursor older than the events kept.
  cursor_expired: 410,
  not_acceptable: 406,
  payload_too_large: 413,
  unsupported_media_type: 415,
  // A bulk file download whose Range starts past the end of the file.
  range_not_satisfiable: 416,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** The framework's own 4xx statuses keep their status; each gets the code of that status. */
export const CODE_BY_STATUS = new Map<number, ErrorCode>(
  (Object.entries(STATUS_BY_CODE) as [ErrorCode, number][]).map(([code, status]) => [status, code]),
);

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Response headers that belong to the error (Retry-After on a 429, Allow on a 405). */
    readonly headers: Record<string, string> = {},
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

/** One problem with one parameter; a 400 lists every one of them. */
export interface ParamIssue {
  parameter: string;
  message: string;
}

export class BadRequestError extends ApiError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('bad_request', message, details);
  }
}

/**
 * A 400 naming each parameter and what is wrong with it: details.issues, the first
 * few of them, and details.more_issues counting the rest (params/issues.ts).
 */
export class InvalidParamsError extends BadRequestError {
  constructor(
    readonly issues: ParamIssue[],
    readonly omitted = 0,
  ) {
    const first = issues[0];
    const others = issues.length - 1 + omitted;
    const more = others > 0 ? ` (and ${others} more problem${others > 1 ? 's' : ''})` : '';
    super(first ? `${first.parameter}: ${first.message}${more}` : 'invalid parameters', {
      issues,
      ...(omitted > 0 ? { more_issues: omitted } : {}),
    });
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string, allow: string[]) {
    super('method_not_allowed', `method ${method} is not allowed here (allowed: ${allow.join(', ')})`, undefined, {
      allow: allow.join(', '),
    });
  }
}

/**
 * GET /events with an after= older than the retention: events this client never
 * received were pruned. 410 Gone, as Stripe and GitHub answer an expired cursor; the client
 * starts again from a full read and the feed without after.
 */
export class CursorExpiredError extends ApiError {
  /** oldestEvent: the oldest event kept (null when every event recorded was pruned). */
  constructor(after: string, retentionDays: number, oldestEvent: string | null) {
    super(
      'cursor_expired',
      `after=${after} is older than the events kept (${retentionDays} days): events after it were pruned; re-read what you need, then follow the feed from its oldest event (call without after)`,
      { parameter: 'after', oldest_event: oldestEvent, retention_days: retentionDays },
    );
  }
}

/** A download's Range starts past the end of the file: 416, with the file's size in Content-Range (RFC 9110, 15.5.17). */
export class RangeNotSatisfiableError extends ApiError {
  constructor(size: number) {
    super(
      'range_not_satisfiable',
      `the Range starts past the end of the file (${size} bytes); ask for bytes 0-${Math.max(0, size - 1)} or fewer`,
      { bytes: size },
      {
        'content-range': `bytes */${size}`,
      },
    );
  }
}
