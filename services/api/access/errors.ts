import { ApiError } from '../errors.ts';

/** The access layer's typed errors; each carries the headers its response needs. */

/** One body for every authentication failure (spec 5.7): nothing tells the cases apart. */
export class UnauthorizedError extends ApiError {
  constructor() {
    super('unauthorized', 'Missing or invalid API key.');
  }
}

/** Per-minute window full, or monthly quota used up where no overage applies (spec 7). */
export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number, headers: Record<string, string>, details?: Record<string, unknown>) {
    super('rate_limited', `Rate limit exceeded. Retry after ${retryAfterSeconds} seconds.`, details, {
      ...headers,
      'retry-after': String(retryAfterSeconds),
    });
  }
}

/**
 * One client already has its most requests in flight at once (in-flight.ts says why). Checked
 * before the window, so it takes no slot and carries no window headers; a second is
 * enough for one of the client's own requests to end.
 */
export class TooManyConcurrentError extends ApiError {
  constructor(limit: number) {
    super(
      'rate_limited',
      `Too many concurrent requests: at most ${limit} at once per client. Retry after 1 second.`,
      { reason: 'too_many_concurrent_requests', max_concurrent: limit },
      { 'retry-after': '1' },
    );
  }
}

/**
 * One client already has its most analytic requests in flight at once. Each reads a whole
 * scope of certificates, so a client may run only a few side by side (CLIENT_MAX_ANALYTICS):
 * the rest of the engine stays with other clients. Checked before the window like
 * TooManyConcurrentError: no slot, no credit.
 */
export class TooManyAnalyticsError extends ApiError {
  constructor(limit: number) {
    super(
      'rate_limited',
      `Too many analytic requests at once: at most ${limit} in flight per client. Retry after 1 second.`,
      { reason: 'too_many_concurrent_analytics', max_concurrent_analytics: limit },
      { 'retry-after': '1' },
    );
  }
}

/** The free trial's credits are gone (spec 8.3): 402 with an upgrade hint. */
export class PaymentRequiredError extends ApiError {
  constructor(headers: Record<string, string>) {
    super(
      'payment_required',
      'Free trial credits are used up. Upgrade to a paid plan or buy a credit pack to continue.',
      {
        reason: 'trial_credits_exhausted',
        upgrade: {
          plans: ['developer', 'pro', 'growth', 'lead_feed', 'enterprise'],
          packs: ['starter', 'investigator', 'bulk', 'power'],
          hint: 'Paid plans include a monthly credit grant; Developer through Lead Feed continue past it with overage billing.',
        },
      },
      headers,
    );
  }
}

export class FeatureDisabledError extends ApiError {
  constructor(code: 'rest_disabled' | 'mcp_disabled' | 'csv_disabled', plan: string, headers: Record<string, string>) {
    const what = code === 'rest_disabled' ? 'the REST API' : code === 'mcp_disabled' ? 'the MCP endpoint' : 'CSV responses';
    super(code, `The ${plan} plan does not include ${what}.`, { plan }, headers);
  }
}

/**
 * The client's plan has no webhooks (spec 8.2: beta on Pro; Growth, Lead Feed and Enterprise),
 * so it has no endpoints to read. Thrown by the webhook reads, after the request was admitted;
 * like every non-2xx answer it is not charged.
 */
export class WebhooksDisabledError extends ApiError {
  constructor(plan: string) {
    super('webhooks_disabled', `The ${plan} plan does not include webhooks (Pro in beta, Growth, Lead Feed and Enterprise do).`, { plan });
  }
}
