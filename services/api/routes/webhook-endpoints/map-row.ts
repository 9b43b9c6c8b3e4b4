import { publicEventId } from '../../../control/feed/events.ts';
import type { WebhookAttempt } from '../../../control/feed/webhook-attempts.ts';
import { publicDeliveryId, type WebhookDelivery } from '../../../control/feed/webhook-deliveries.ts';
import type { WebhookEndpoint } from '../../../control/feed/webhook-endpoints.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './row.ts';

/** The one public rendering of an endpoint: the REST answer and `taxcert webhooks ... --json`. */
export function mapEndpoint(e: WebhookEndpoint): WebhookEndpointRow {
  return {
    id: e.id,
    url: e.url,
    types: e.types,
    counties: e.counties,
    saved_searches: e.savedSearches,
    status: e.status,
    disabled_reason: e.disabledReason,
    disabled_at: e.disabledAt,
    secret_rotated_at: e.secretRotatedAt,
    created_at: e.createdAt,
  };
}

export function mapDelivery(d: WebhookDelivery & { attemptLog: WebhookAttempt[] }): WebhookDeliveryRow {
  return {
    id: publicDeliveryId(d.id),
    endpoint_id: d.endpointId,
    event_id: publicEventId(d.eventId),
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    last_error: d.lastError,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    attempt_log: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      replay: a.generation,
      started_at: a.startedAt,
      duration_ms: a.durationMs,
      http_status: a.httpStatus,
      error: a.error,
      response_body: a.responseBody,
    })),
  };
}
