import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../../control/feed/webhook-deliveries.ts';
import { limit, offset } from '../../params/common.ts';
import { SAVED_SEARCH_LIMITS } from '../../writes/limits.ts';

/** GET /webhook-endpoints: the calling client's endpoints, oldest first. */
export const WebhookEndpointsParams = z.strictObject({ limit: limit(100), offset });
export type WebhookEndpointsParams = z.infer<typeof WebhookEndpointsParams>;

export const WebhookEndpointPath = z.strictObject({
  id: z.string().describe("Webhook endpoint id, form whe_<id> (anything else, or another client's endpoint, is a 404)."),
});
export type WebhookEndpointPath = z.infer<typeof WebhookEndpointPath>;

/** GET /webhook-endpoints/{id}/deliveries: newest first, each with every attempt. */
export const WebhookDeliveriesParams = z.strictObject({
  status: z
    .enum(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(', ')}`)
    .optional()
    .describe('pending, delivered or failed.'),
  event_id: z
    .string()
    .regex(/^evt_[1-9][0-9]{0,15}$/, 'must be an event id such as evt_123')
    .optional()
    .describe('Only the delivery of this event (evt_<id>, the webhook-id header of the delivery).'),
  limit: limit(25),
  offset,
});
export type WebhookDeliveriesParams = z.infer<typeof WebhookDeliveriesParams>;

/** Nothing in the query string: a write's input is its JSON body. */
export const NoQuery = z.strictObject({});

/** Saved search ids: as many as the largest plan may own, checked further against the client's own. */
const savedSearches = z.array(z.string().max(64)).max(Math.max(...Object.values(SAVED_SEARCH_LIMITS)));

/** POST /webhook-endpoints: checked further by the rule the account page and the CLI use (webhook-endpoint-input.ts). */
export const CreateWebhookEndpointBody = z.strictObject({
  url: z.string().max(2048).describe('Where events are POSTed: an absolute http(s) URL of a public address (no private or loopback ones).'),
  types: z
    .array(z.string())
    .max(64)
    .optional()
    .describe('Event types to deliver, e.g. ["certificate.redeemed"]; leave it out for every type.'),
  counties: z.array(z.string()).max(67).optional().describe('County slugs whose events are delivered; leave it out for every county.'),
  saved_searches: savedSearches
    .optional()
    .describe(
      "Ids of your saved searches (ss_<id>) whose events (saved_search.*) are delivered; leave it out for all of them. Public events do not depend on it. Another client's id is refused as unknown; a search deleted later just sends nothing more.",
    ),
});
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBody>;

/** PATCH /webhook-endpoints/{id}: each field given replaces the stored one. */
export const UpdateWebhookEndpointBody = z
  .strictObject({
    url: z.string().max(2048).optional().describe('A new address, under the same rule as on creation.'),
    types: z.array(z.string()).max(64).nullable().optional().describe('Event types to deliver; null for every type.'),
    counties: z.array(z.string()).max(67).nullable().optional().describe('County slugs; null for every county.'),
    saved_searches: savedSearches
      .nullable()
      .optional()
      .describe('Ids of your saved searches whose events are delivered; null for all of them.'),
    status: z
      .enum(['enabled', 'disabled'], 'must be enabled or disabled')
      .optional()
      .describe('disabled stops deliveries (as the account page does); enabled starts them again and clears a run of failures.'),
  })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of url, types, counties, saved_searches, status');
export type UpdateWebhookEndpointBody = z.infer<typeof UpdateWebhookEndpointBody>;
