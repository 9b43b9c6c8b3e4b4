import { parseEventId } from '../../../control/feed/events.ts';
import type { Sql } from '../../../control/db/sql.ts';
import { listDeliveries } from '../../../control/feed/webhook-deliveries.ts';
import { getEndpoint, listEndpoints } from '../../../control/feed/webhook-endpoints.ts';
import type { Principal } from '../../access/authenticate.ts';
import { WebhooksDisabledError } from '../../access/errors.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { NotFoundError } from '../../errors.ts';
import { mapDelivery, mapEndpoint } from './map-row.ts';
import type { WebhookDeliveriesParams, WebhookEndpointPath, WebhookEndpointsParams } from './params.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './row.ts';

/** A plan without webhooks has no endpoints to read: 403 webhooks_disabled, naming the plan. */
function requireWebhooks(principal: Principal): void {
  if (principal.plan.webhooks === 'none') throw new WebhooksDisabledError(principal.plan.code);
}

/** GET /webhook-endpoints: the calling client's endpoints, oldest first. */
export async function readWebhookEndpoints(
  deps: { sql: Sql },
  principal: Principal,
  params: WebhookEndpointsParams,
): Promise<ListResult<WebhookEndpointRow>> {
  requireWebhooks(principal);
  const all = await listEndpoints(deps.sql, principal.client.id);
  // At most 16 per client: the page is cut here.
  return {
    rows: all.slice(params.offset, params.offset + params.limit).map(mapEndpoint),
    limit: params.limit,
    offset: params.offset,
    total: all.length,
  };
}

/** GET /webhook-endpoints/{id}: one of the client's endpoints, never its secret. */
export async function readWebhookEndpoint(
  deps: { sql: Sql },
  principal: Principal,
  path: WebhookEndpointPath,
): Promise<ObjectResult<WebhookEndpointRow>> {
  requireWebhooks(principal);
  const endpoint = await getEndpoint(deps.sql, path.id);
  if (!endpoint || endpoint.clientId !== principal.client.id)
    throw new NotFoundError(`no webhook endpoint ${JSON.stringify(path.id)}; GET /api/v1/webhook-endpoints lists yours`);
  return { data: mapEndpoint(endpoint) };
}

/** GET /webhook-endpoints/{id}/deliveries: newest first; another client's endpoint is as unknown as a missing one. */
export async function readWebhookDeliveries(
  deps: { sql: Sql },
  principal: Principal,
  path: WebhookEndpointPath,
  params: WebhookDeliveriesParams,
): Promise<ListResult<WebhookDeliveryRow>> {
  requireWebhooks(principal);
  const endpoint = await getEndpoint(deps.sql, path.id);
  if (!endpoint || endpoint.clientId !== principal.client.id)
    throw new NotFoundError(`no webhook endpoint ${JSON.stringify(path.id)}; GET /api/v1/webhook-endpoints lists yours`);
  const { rows, total } = await listDeliveries(deps.sql, endpoint.id, {
    status: params.status,
    eventId: params.event_id === undefined ? undefined : (parseEventId(params.event_id) ?? undefined),
    limit: params.limit,
    offset: params.offset,
  });
  return { rows: rows.map(mapDelivery), limit: params.limit, offset: params.offset, total };
}
