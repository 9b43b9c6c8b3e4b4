import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { eventBounds, type EventType } from './events.ts';
import type { PlanCode, WebhooksFlag } from './plans.ts';
import { newSigningSecret, type SecretBox } from './webhook-secrets.ts';
import { statement } from './statements.ts';

/**
 * A client's webhook endpoints (issue 20, section 3; migration 018): where to POST which
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
  status: string;
  disabled_reason: string | null;
  disabled_at: string | null;
  after_event_id: number;
  failing_since: string | null;
  secret_rotated_at: string | null;
  created_at: string;
}

const COLUMNS = 'id, client_id, url, types, counties, status, disabled_reason, disabled_at, after_event_id, failing_since, secret_rotated_at, created_at';

function mapRow(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    clientId: row.client_id,
    url: row.url,
    types: row.types === null ? null : (JSON.parse(row.types) as EventType[]),
    counties: row.counties === null ? null : (JSON.parse(row.counties) as string[]),
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
export function requireWebhooksPlan(db: Database, clientId: string): WebhooksFlag {
  // issue22-merge: getClient/getPlan are async on Sql now and createEndpoint's transaction is still
  // synchronous on the SQLite handle, so the two rows are read here directly until this module moves.
  const row = statement(db, 'SELECT c.plan AS plan, p.webhooks AS webhooks FROM clients c JOIN plans p ON p.code = c.plan WHERE c.id = ?').get(clientId) as
    | { plan: PlanCode; webhooks: WebhooksFlag }
    | undefined;
  if (!row) throw new UnknownClientError(clientId);
  if (row.webhooks === 'none') throw new WebhooksNotInPlanError(row.plan);
  return row.webhooks;
}

export interface NewEndpoint {
  clientId: string;
  /** Checked beforehand (webhook-endpoint-input.ts). */
  url: string;
  types: EventType[] | null;
  counties: string[] | null;
}

/** Makes an enabled endpoint; the raw secret is in the answer and nowhere else. */
export function createEndpoint(
  db: Database,
  box: SecretBox,
  input: NewEndpoint,
  now = new Date(),
): { endpoint: WebhookEndpoint; secret: string; plan: WebhooksFlag } {
  return db
    .transaction(() => {
      const plan = requireWebhooksPlan(db, input.clientId);
      const count = (statement(db, 'SELECT count(*) AS n FROM webhook_endpoints WHERE client_id = ?').get(input.clientId) as { n: number }).n;
      if (count >= MAX_ENDPOINTS_PER_CLIENT) throw new EndpointLimitError(input.clientId);
      const id = newEndpointId();
      const secret = newSigningSecret();
      statement(db, 
        `INSERT INTO webhook_endpoints (id, client_id, url, types, counties, secret, after_event_id, created_at)
         VALUES (@id, @clientId, @url, @types, @counties, @secret, @after, @createdAt)`,
      ).run({
        id,
        clientId: input.clientId,
        url: input.url,
        types: input.types === null ? null : JSON.stringify(input.types),
        counties: input.counties === null ? null : JSON.stringify(input.counties),
        secret: box.seal(secret, id),
        after: eventBounds(db).lastSeq,
        createdAt: now.toISOString(),
      });
      return { endpoint: getEndpoint(db, id)!, secret, plan };
    })
    .immediate();
}

export function getEndpoint(db: Database, id: string): WebhookEndpoint | null {
  const row = statement(db, `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`).get(id) as Row | undefined;
  return row ? mapRow(row) : null;
}

/** What the worker reads before each delivery: where to send, and whether it may. No JSON to parse. */
export function endpointTarget(db: Database, id: string): { url: string; status: EndpointStatus; disabledReason: DisabledReason | null } | null {
  const row = statement(db, 'SELECT url, status, disabled_reason AS disabledReason FROM webhook_endpoints WHERE id = ?').get(id) as
    | { url: string; status: EndpointStatus; disabledReason: DisabledReason | null }
    | undefined;
  return row ?? null;
}

/** The client's endpoints, oldest first. */
export function listEndpoints(db: Database, clientId: string): WebhookEndpoint[] {
  const rows = statement(db, `SELECT ${COLUMNS} FROM webhook_endpoints WHERE client_id = ? ORDER BY created_at, id`).all(clientId) as Row[];
  return rows.map(mapRow);
}

/**
 * Enables (clearing the run of failures, so a re-enabled endpoint gets its full window again)
 * or disables with a reason. Deliveries that come due while disabled are marked failed; replay
 * sends them once the endpoint is enabled again.
 */
export function setEndpointStatus(
  db: Database,
  id: string,
  change: { status: 'enabled' } | { status: 'disabled'; reason: DisabledReason },
  now = new Date(),
): WebhookEndpoint | null {
  if (change.status === 'enabled')
    statement(db, 
      "UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL WHERE id = ?",
    ).run(id);
  else
    statement(db, 
      "UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, disabled_at = ? WHERE id = ? AND status = 'enabled'",
    ).run(change.reason, now.toISOString(), id);
  return getEndpoint(db, id);
}

/** Deletes the endpoint with its deliveries and attempts; queued jobs find nothing and end. */
export function deleteEndpoint(db: Database, id: string): boolean {
  return statement(db, 'DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes === 1;
}

/**
 * A new secret, returned once. The old one keeps signing beside it for a day (Standard Webhooks
 * sends every valid signature, space-separated), so receivers can switch without a failure.
 */
export function rotateSecret(db: Database, box: SecretBox, id: string, now = new Date()): { endpoint: WebhookEndpoint; secret: string } | null {
  const secret = newSigningSecret();
  const changed = statement(db, 
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = @expires, secret = @secret, secret_rotated_at = @now
       WHERE id = @id`,
    )
    .run({ id, secret: box.seal(secret, id), expires: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS).toISOString(), now: now.toISOString() });
  if (changed.changes === 0) return null;
  return { endpoint: getEndpoint(db, id)!, secret };
}

/** The secrets to sign with now: the current one, then the previous one while its grace lasts. */
export function signingSecrets(db: Database, box: SecretBox, id: string, now = new Date()): string[] {
  const row = statement(db, 'SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = ?').get(id) as
    | { secret: Buffer; previous_secret: Buffer | null; previous_secret_expires_at: string | null }
    | undefined;
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
export function noteAttemptOutcome(db: Database, id: string, ok: boolean, at: string, disableAfterMs: number): boolean {
  if (ok) {
    statement(db, 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL').run(id);
    return false;
  }
  const row = statement(db, 'UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ? RETURNING failing_since, status')
    .get(at, id) as { failing_since: string; status: string } | undefined;
  if (row?.status !== 'enabled') return false;
  if (Date.parse(at) - Date.parse(row.failing_since) < disableAfterMs) return false;
  statement(db, "UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'failing', disabled_at = ? WHERE id = ?").run(at, id);
  return true;
}
