import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../../control/feed/webhook-deliveries.ts';
import { limit, offset } from '../../params/common.ts';

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
