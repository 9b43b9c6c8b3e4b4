import { randomBytes } from 'node:crypto';
import { getClient } from '../billing/clients.ts';
import { eventBounds, type EventType } from './events.ts';
import { getPlan, type PlanCode, type WebhooksFlag } from '../billing/plans.ts';
import type { Sql } from '../db/sql.ts';
import { newSigningSecret, type SecretBox } from './webhook-secrets.ts';

/**
 * A client's webhook endpoints (migration 018): where to POST which
 * events. The signing secret leaves this module only in the return value of createEndpoint
 * and rotateSecret (to be shown once) and of signingSecrets (for the worker to sign with).
 */

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
/** operator: `taxcert webhooks disable`; gone: the receiver answered 410; failing: every attempt failed for WEBHOOK_DISABLE_AFTER. */
export const DISABLED_REASONS = ['operator', 'gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** Endpoints one client may have, as Stripe allows: enough for every environment of an integration. */
export const MAX_ENDPOINTS_PER_CLIENT = 16;
/** How long the secret before a rotation keeps signing beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

export interface WebhookEndpoint {
  id: string;
  clientId: string;
  url: string;
  /** null: every event type. */
  types: EventType[] | null;
  /** null: every county (and events of no county). */
  counties: string[] | null;
  /**
   * Which of its client's saved searches' private events it receives; null: all of them. Public
   * events do not depend on it. A search deleted later stays named here and simply has no events.
   */
  savedSearches: string[] | null;
  status: EndpointStatus;
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  /** The last event id given when the endpoint was made: it receives the events after it. */
  afterEventId: number;
  /** The first failure of the current unbroken run of failed attempts; null after a success. */
  failingSince: string | null;
  secretRotatedAt: string | null;
  createdAt: string;
}

interface Row {
  id: string;
  client_id: string;
  url: string;
  types: string | null;
  counties: string | null;
  saved_searches: string | null;
  status: string;
  disabled_reason: string | null;
  disabled_at: string | null;
  after_event_id: number;
  failing_since: string | null;
  secret_rotated_at: string | null;
  created_at: string;
}

const COLUMNS =
  'id, client_id, url, types, counties, saved_searches, status, disabled_reason, disabled_at, after_event_id, failing_since, secret_rotated_at, created_at';

function mapRow(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    clientId: row.client_id,
    url: row.url,
    types: row.types === null ? null : (JSON.parse(row.types) as EventType[]),
    counties: row.counties === null ? null : (JSON.parse(row.counties) as string[]),
    savedSearches: row.saved_searches === null ? null : (JSON.parse(row.saved_searches) as string[]),
    status: row.status as EndpointStatus,
    disabledReason: row.disabled_reason as DisabledReason | null,
    disabledAt: row.disabled_at,
    afterEventId: row.after_event_id,
    failingSince: row.failing_since,
    secretRotatedAt: row.secret_rotated_at,
    createdAt: row.created_at,
  };
}

/** The client's plan has no webhooks (spec 8.2: Pro has them in beta; Growth, Lead Feed and Enterprise). */
export class WebhooksNotInPlanError extends Error {
  override name = 'WebhooksNotInPlanError';
  readonly code = 'webhooks_disabled';
  constructor(readonly plan: PlanCode) {
    super(`the ${plan} plan does not include webhooks (they come with pro, in beta, and with growth, lead_feed and enterprise)`);
  }
}

export class EndpointLimitError extends Error {
  override name = 'EndpointLimitError';
  readonly code = 'endpoint_limit';
  constructor(readonly clientId: string) {
    super(`client ${clientId} already has ${MAX_ENDPOINTS_PER_CLIENT} webhook endpoints, the most one client may have; delete one first`);
  }
}

export class UnknownClientError extends Error {
  override name = 'UnknownClientError';
  readonly code = 'not_found';
  constructor(readonly clientId: string) {
    super(`no client ${clientId}`);
  }
}

export function newEndpointId(): string {
  return `whe_${randomBytes(12).toString('base64url')}`;
}

/** The plan's webhooks flag (none, beta, included), or WebhooksNotInPlanError when none. */
export async function requireWebhooksPlan(sql: Sql, clientId: string): Promise<WebhooksFlag> {
  const client = await getClient(sql, clientId);
  if (!client) throw new UnknownClientError(clientId);
  const flag = (await getPlan(sql, client.plan)).webhooks;
  if (flag === 'none') throw new WebhooksNotInPlanError(client.plan);
  return flag;
}

export interface NewEndpoint {
  clientId: string;
  /** Checked beforehand (webhook-endpoint-input.ts). */
  url: string;
  types: EventType[] | null;
  counties: string[] | null;
  /** The client's own saved searches, checked beforehand; absent or null: all of them. */
  savedSearches?: string[] | null;
}

/** Makes an enabled endpoint; the raw secret is in the answer and nowhere else. */
export async function createEndpoint(
  sql: Sql,
  box: SecretBox,
  input: NewEndpoint,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string; plan: WebhooksFlag }> {
  return sql.transaction(async (tx) => {
    const plan = await requireWebhooksPlan(tx, input.clientId);
    const count = (await tx.get<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE client_id = ?', [input.clientId]))!.n;
    if (count >= MAX_ENDPOINTS_PER_CLIENT) throw new EndpointLimitError(input.clientId);
    const id = newEndpointId();
    const secret = newSigningSecret();
    await tx.run(
      `INSERT INTO webhook_endpoints (id, client_id, url, types, counties, saved_searches, secret, after_event_id, created_at)
       VALUES (@id, @clientId, @url, @types, @counties, @savedSearches, @secret, @after, @createdAt)`,
      {
        id,
        clientId: input.clientId,
        url: input.url,
        types: input.types === null ? null : JSON.stringify(input.types),
        counties: input.counties === null ? null : JSON.stringify(input.counties),
        savedSearches: input.savedSearches == null ? null : JSON.stringify(input.savedSearches),
        secret: box.seal(secret, id),
        after: (await eventBounds(tx)).lastSeq,
        createdAt: now.toISOString(),
      },
    );
    return { endpoint: (await getEndpoint(tx, id))!, secret, plan };
  });
}

export async function getEndpoint(sql: Sql, id: string): Promise<WebhookEndpoint | null> {
  const row = await sql.get<Row>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`, [id]);
  return row ? mapRow(row) : null;
}

/** What the worker reads before each delivery: where to send, and whether it may. No JSON to parse. */
export async function endpointTarget(
  sql: Sql,
  id: string,
): Promise<{ clientId: string; url: string; status: EndpointStatus; disabledReason: DisabledReason | null } | null> {
  const row = await sql.get<{ clientId: string; url: string; status: EndpointStatus; disabledReason: DisabledReason | null }>(
    'SELECT client_id AS "clientId", url, status, disabled_reason AS "disabledReason" FROM webhook_endpoints WHERE id = ?',
    [id],
  );
  return row ?? null;
}

/** The client's endpoints, oldest first. */
export async function listEndpoints(sql: Sql, clientId: string): Promise<WebhookEndpoint[]> {
  const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE client_id = ? ORDER BY created_at, id`, [clientId]);
  return rows.map(mapRow);
}

/**
 * Enables (clearing the run of failures, so a re-enabled endpoint gets its full window again)
 * or disables with a reason. Deliveries that come due while disabled are marked failed; replay
 * sends them once the endpoint is enabled again.
 */
export async function setEndpointStatus(
  sql: Sql,
  id: string,
  change: { status: 'enabled' } | { status: 'disabled'; reason: DisabledReason },
  now = new Date(),
): Promise<WebhookEndpoint | null> {
  if (change.status === 'enabled')
    await sql.run(
      "UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL WHERE id = ?",
      [id],
    );
  else
    await sql.run(
      "UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, disabled_at = ? WHERE id = ? AND status = 'enabled'",
      [change.reason, now.toISOString(), id],
    );
  return getEndpoint(sql, id);
}

/**
 * Changes where an endpoint sends and what: each field given replaces the stored one (types,
 * counties or saved searches null: every one). The values are checked beforehand (webhook-endpoint-input.ts).
 */
export async function updateEndpoint(
  sql: Sql,
  id: string,
  change: { url?: string; types?: EventType[] | null; counties?: string[] | null; savedSearches?: string[] | null },
): Promise<WebhookEndpoint | null> {
  const sets: string[] = [];
  const values: Record<string, string | null> = { id };
  if (change.url !== undefined) {
    sets.push('url = @url');
    values.url = change.url;
  }
  for (const [field, column] of [
    ['types', 'types'],
    ['counties', 'counties'],
    ['savedSearches', 'saved_searches'],
  ] as const) {
    const value = change[field];
    if (value === undefined) continue;
    sets.push(`${column} = @${field}`);
    values[field] = value === null ? null : JSON.stringify(value);
  }
  if (sets.length > 0) await sql.run(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = @id`, values);
  return getEndpoint(sql, id);
}

/** Deletes the endpoint with its deliveries and attempts; queued jobs find nothing and end. */
export async function deleteEndpoint(sql: Sql, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM webhook_endpoints WHERE id = ?', [id])).changes === 1;
}

/**
 * A new secret, returned once. The old one keeps signing beside it for a day (Standard Webhooks
 * sends every valid signature, space-separated), so receivers can switch without a failure.
 */
export async function rotateSecret(
  sql: Sql,
  box: SecretBox,
  id: string,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
  const secret = newSigningSecret();
  const changed = await sql.run(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = @expires, secret = @secret, secret_rotated_at = @now
     WHERE id = @id`,
    { id, secret: box.seal(secret, id), expires: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS).toISOString(), now: now.toISOString() },
  );
  if (changed.changes === 0) return null;
  return { endpoint: (await getEndpoint(sql, id))!, secret };
}

/** The secrets to sign with now: the current one, then the previous one while its grace lasts. */
export async function signingSecrets(sql: Sql, box: SecretBox, id: string, now = new Date()): Promise<string[]> {
  const row = await sql.get<{ secret: Buffer; previous_secret: Buffer | null; previous_secret_expires_at: string | null }>(
    'SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = ?',
    [id],
  );
  if (!row) return [];
  const secrets = [box.open(row.secret, id)];
  if (row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > now.toISOString())
    secrets.push(box.open(row.previous_secret, id));
  return secrets;
}

/**
 * What an attempt's outcome does to its endpoint, in the caller's transaction: a success ends
 * the run of failures; a failure starts one, and disables the endpoint once the run has lasted
 * disableAfterMs. Returns true when this failure disabled it.
 */
export async function noteAttemptOutcome(sql: Sql, id: string, ok: boolean, at: string, disableAfterMs: number): Promise<boolean> {
  if (ok) {
    await sql.run('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL', [id]);
    return false;
  }
  const row = await sql.get<{ failing_since: string; status: string }>(
    'UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ? RETURNING failing_since, status',
    [at, id],
  );
  if (row?.status !== 'enabled') return false;
  if (Date.parse(at) - Date.parse(row.failing_since) < disableAfterMs) return false;
  await sql.run("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'failing', disabled_at = ? WHERE id = ?", [at, id]);
  return true;
}
