import type { Sql } from '../../../control/db/sql.ts';
import { checkClientEndpointInput, type EndpointInputProblem } from '../../../control/feed/webhook-endpoint-input.ts';
import {
  createEndpoint,
  deleteEndpoint,
  EndpointLimitError,
  getEndpoint,
  rotateSecret,
  setEndpointStatus,
  updateEndpoint,
  type WebhookEndpoint,
} from '../../../control/feed/webhook-endpoints.ts';
import type { SecretBox } from '../../../control/feed/webhook-secrets.ts';
import type { Registry } from '../../../domain/registry.ts';
import type { AddressPolicy } from '../../../domain/webhook-address.ts';
import type { Principal } from '../../access/authenticate.ts';
import { WebhooksDisabledError } from '../../access/errors.ts';
import { InvalidParamsError, NotFoundError } from '../../errors.ts';
import { LimitReachedError, resourceLimit } from '../../writes/limits.ts';
import { deleted, type WriteResult } from '../../writes/respond.ts';
import { mapEndpoint } from './map-row.ts';
import type { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from './params.ts';
import type { WebhookEndpointRow, WebhookEndpointWithSecret } from './row.ts';

/**
 * The webhook endpoint writes, over the control-plane functions the account page and the CLI
 * use: the same address rule and messages (webhook-endpoint-input.ts), the same limit, the same
 * rotation overlap. Another client's endpoint is as unknown as a missing one.
 */
export interface WriteDeps {
  sql: Sql;
  box: SecretBox;
  registry: Registry;
  policy: AddressPolicy;
}

export function requireWebhooks(principal: Principal): void {
  if (principal.plan.webhooks === 'none') throw new WebhooksDisabledError(principal.plan.code);
}

export async function ownEndpoint(sql: Sql, principal: Principal, id: string): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(sql, id);
  if (!endpoint || endpoint.clientId !== principal.client.id)
    throw new NotFoundError(`no webhook endpoint ${JSON.stringify(id)}; GET /api/v1/webhook-endpoints lists yours`);
  return endpoint;
}

function invalid(problems: EndpointInputProblem[]): InvalidParamsError {
  return new InvalidParamsError(problems.map((p) => ({ parameter: p.field, message: p.problem })));
}

export async function createWebhookEndpoint(
  deps: WriteDeps,
  principal: Principal,
  body: CreateWebhookEndpointBody,
): Promise<WriteResult<WebhookEndpointWithSecret>> {
  requireWebhooks(principal);
  const checked = await checkClientEndpointInput(
    deps.sql,
    principal.client.id,
    { url: body.url, types: body.types, counties: body.counties, savedSearches: body.saved_searches },
    { registry: deps.registry, policy: deps.policy },
  );
  if (!checked.ok) throw invalid(checked.problems);
  try {
    const made = await createEndpoint(deps.sql, deps.box, { clientId: principal.client.id, ...checked.value });
    return { status: 201, data: { ...mapEndpoint(made.endpoint), secret: made.secret } };
  } catch (err) {
    if (err instanceof EndpointLimitError)
      throw new LimitReachedError('webhook_endpoints', resourceLimit('webhook_endpoints', principal.plan), principal.plan.code);
    throw err;
  }
}

export async function updateWebhookEndpoint(
  deps: WriteDeps,
  principal: Principal,
  id: string,
  body: UpdateWebhookEndpointBody,
): Promise<WriteResult<WebhookEndpointRow>> {
  requireWebhooks(principal);
  const current = await ownEndpoint(deps.sql, principal, id);
  const touchesAddress =
    body.url !== undefined || body.types !== undefined || body.counties !== undefined || body.saved_searches !== undefined;
  if (touchesAddress) {
    // The endpoint as it would be, checked whole by the rule creation uses; only the given fields are stored.
    // Its stored saved searches are checked only when given again: one deleted since leaves the endpoint working.
    const types = body.types === undefined ? current.types : body.types;
    const counties = body.counties === undefined ? current.counties : body.counties;
    const checked = await checkClientEndpointInput(
      deps.sql,
      principal.client.id,
      {
        url: body.url ?? current.url,
        types: types ?? undefined,
        counties: counties ?? undefined,
        savedSearches: body.saved_searches ?? undefined,
      },
      { registry: deps.registry, policy: deps.policy },
    );
    if (!checked.ok) throw invalid(checked.problems);
    await updateEndpoint(deps.sql, id, {
      url: body.url === undefined ? undefined : checked.value.url,
      types: body.types === undefined ? undefined : checked.value.types,
      counties: body.counties === undefined ? undefined : checked.value.counties,
      savedSearches: body.saved_searches === undefined ? undefined : checked.value.savedSearches,
    });
  }
  if (body.status === 'enabled' && current.status !== 'enabled') await setEndpointStatus(deps.sql, id, { status: 'enabled' });
  if (body.status === 'disabled') await setEndpointStatus(deps.sql, id, { status: 'disabled', reason: 'operator' });
  const now = await getEndpoint(deps.sql, id);
  if (!now) throw new NotFoundError(`no webhook endpoint ${JSON.stringify(id)}; GET /api/v1/webhook-endpoints lists yours`);
  return { status: 200, data: mapEndpoint(now) };
}

export async function deleteWebhookEndpoint(
  deps: WriteDeps,
  principal: Principal,
  id: string,
): Promise<WriteResult<{ id: string; deleted: true }>> {
  requireWebhooks(principal);
  await ownEndpoint(deps.sql, principal, id);
  if (!(await deleteEndpoint(deps.sql, id)))
    throw new NotFoundError(`no webhook endpoint ${JSON.stringify(id)}; GET /api/v1/webhook-endpoints lists yours`);
  return deleted(id);
}

export async function rotateWebhookSecret(
  deps: WriteDeps,
  principal: Principal,
  id: string,
): Promise<WriteResult<WebhookEndpointWithSecret>> {
  requireWebhooks(principal);
  await ownEndpoint(deps.sql, principal, id);
  const rotated = await rotateSecret(deps.sql, deps.box, id);
  if (!rotated) throw new NotFoundError(`no webhook endpoint ${JSON.stringify(id)}; GET /api/v1/webhook-endpoints lists yours`);
  return { status: 200, data: { ...mapEndpoint(rotated.endpoint), secret: rotated.secret } };
}
