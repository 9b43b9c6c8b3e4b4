import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../../control/feed/webhook-deliveries.ts';
import { DISABLED_REASONS, ENDPOINT_STATUSES } from '../../../control/feed/webhook-endpoints.ts';
import { listResponse, objectResponse } from '../../envelope.ts';

/** A webhook endpoint as its client reads it: never its signing secret. */
export const WebhookEndpointRow = z
  .object({
    id: z.string().describe('Endpoint id, whe_<id>.'),
    url: z.string().describe('Where events are POSTed.'),
    types: z.array(z.string()).nullable().describe('Event types delivered; null for every type.'),
    counties: z.array(z.string()).nullable().describe('County slugs whose events are delivered; null for every county.'),
    saved_searches: z
      .array(z.string())
      .nullable()
      .describe(
        'Your saved searches (ss_<id>) whose events are delivered; null for all of them. A search deleted since stays listed and sends nothing.',
      ),
    status: z.enum(ENDPOINT_STATUSES).describe('enabled, or disabled (nothing is sent; see disabled_reason).'),
    disabled_reason: z
      .enum(DISABLED_REASONS)
      .nullable()
      .describe(
        'operator (disabled on request), gone (the receiver answered 410) or failing (every attempt failed for 3 days); null when enabled.',
      ),
    disabled_at: z.string().nullable().describe('When it was disabled (ISO-8601), null when enabled.'),
    secret_rotated_at: z.string().nullable().describe('When the signing secret was last rotated (ISO-8601); null if never.'),
    created_at: z.string().describe('When it was created (ISO-8601); it receives the events recorded after.'),
  })
  .strict();
export type WebhookEndpointRow = z.infer<typeof WebhookEndpointRow>;

export const WebhookAttemptRow = z
  .object({
    attempt: z.number().int().describe('1 for the first attempt; a replay starts again at 1.'),
    replay: z.number().int().describe('0 for the original delivery, n for its n-th replay.'),
    started_at: z.string().describe('When the request was sent (ISO-8601).'),
    duration_ms: z.number().int().describe('How long until the answer, the error or the 10-second timeout.'),
    http_status: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came."),
    error: z.string().nullable().describe('Why no answer came (timeout, connection refused, address not allowed, ...); null when one did.'),
    response_body: z.string().nullable().describe("The first 1 KB of the receiver's answer."),
  })
  .strict();

export const WebhookDeliveryRow = z
  .object({
    id: z.string().describe('Delivery id, whd_<id>.'),
    endpoint_id: z.string().describe('The endpoint, whe_<id>.'),
    event_id: z.string().describe('The event delivered, evt_<id>: the webhook-id header, the same on every attempt.'),
    event_type: z.string().describe('The event type, e.g. certificate.redeemed.'),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe('pending (on its way or waiting for a retry), delivered (a 2xx came) or failed (every attempt failed).'),
    attempts: z.number().int().describe('Attempts so far (of the latest replay, if any).'),
    next_attempt_at: z.string().nullable().describe('When the next attempt is due (ISO-8601); null once delivered or failed.'),
    last_error: z.string().nullable().describe('Why the last attempt failed; null when delivered.'),
    created_at: z.string().describe('When the delivery was created (ISO-8601).'),
    updated_at: z.string().describe('When it last changed (ISO-8601).'),
    attempt_log: z.array(WebhookAttemptRow).describe('Every attempt, oldest first.'),
  })
  .strict();
export type WebhookDeliveryRow = z.infer<typeof WebhookDeliveryRow>;

/** An endpoint with its signing secret: the answer of its creation and of a rotation, and nowhere else. */
export const WebhookEndpointWithSecret = WebhookEndpointRow.extend({
  secret: z
    .string()
    .describe('The signing secret (whsec_...), shown in this answer only: store it now. Verify deliveries with it (Standard Webhooks).'),
}).strict();
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const WebhookEndpointList = listResponse(WebhookEndpointRow);
export const WebhookDeliveryList = listResponse(WebhookDeliveryRow);
export const WebhookEndpointResponse = objectResponse(WebhookEndpointRow);
export const WebhookEndpointSecretResponse = objectResponse(WebhookEndpointWithSecret);
