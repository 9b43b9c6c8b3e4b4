import { type EventType, publicEventId } from './events.ts';
import { type Dialect, inJsonArray, type Sql } from '../db/sql.ts';
import { attemptsOf, insertAttempt, type WebhookAttempt } from './webhook-attempts.ts';
import { advanceDispatchCursor, dispatchCursor } from './webhook-dispatch.ts';
import { noteAttemptOutcome, setEndpointStatus, type WebhookEndpoint } from './webhook-endpoints.ts';
import { spendReplay } from './webhook-replay-budget.ts';

/**
 * One delivery per endpoint and event (migration 018): its state, written
 * before the queue hears of it (the outbox), so nothing is lost between SQLite and Redis. The
 * worker drains the outbox into the queue; each job sends once and writes its outcome here.
 */

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDelivery {
  id: number;
  endpointId: string;
  /** The event's numeric id (publicEventId gives evt_<id>). */
  eventId: number;
  eventType: EventType;
  /** How many times it was replayed. */
  generation: number;
  status: DeliveryStatus;
  /** Attempts of the current generation. */
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export function publicDeliveryId(id: number): string {
  return `whd_${id}`;
}

interface Row {
  id: number;
  endpoint_id: string;
  event_id: number;
  event_type: string;
  generation: number;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

function mapRow(r: Row): WebhookDelivery {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: r.event_type as EventType,
    generation: r.generation,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const SELECT_DELIVERY = `SELECT d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.generation, d.status, d.attempts,
  d.next_attempt_at, d.last_error, d.created_at, d.updated_at
  FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id`;

/** An endpoint's fields as SQL expressions: its columns in a fan-out, parameters in a replay (JSON arrays or NULL). */
interface EndpointTerms {
  clientId: string;
  types: string;
  counties: string;
  savedSearches: string;
}

/**
 * Whether the endpoint wants `ev` (an events row), as SQL: its type and county filters take it,
 * and a private event is its own client's: a saved search's, of a search it chose (saved_searches
 * NULL: every one of its client's); a portfolio's, whatever searches it chose. Public events do not
 * depend on saved_searches. One rule for
 * fan-out and replay, so a replay can never send what fan-out would not.
 */
function wantsEvent(dialect: Dialect, e: EndpointTerms): string {
  return `(${e.types} IS NULL OR ${inJsonArray(dialect, 'ev.type', e.types)})
  AND (${e.counties} IS NULL OR ${inJsonArray(dialect, 'ev.county_slug', e.counties)})
  AND (ev.client_id IS NULL OR (ev.client_id = ${e.clientId}
    AND (ev.saved_search_id IS NULL OR ${e.savedSearches} IS NULL OR ${inJsonArray(dialect, 'ev.saved_search_id', e.savedSearches)})))`;
}

const ENDPOINT_COLUMNS: EndpointTerms = {
  clientId: 'e.client_id',
  types: 'e.types',
  counties: 'e.counties',
  savedSearches: 'e.saved_searches',
};
const REPLAY_PARAMS: EndpointTerms = {
  clientId: 'CAST(@client AS TEXT)',
  types: 'CAST(@types AS TEXT)',
  counties: 'CAST(@counties AS TEXT)',
  savedSearches: 'CAST(@savedSearches AS TEXT)',
};

/**
 * Fans the events after the cursor (at most maxEvents of them) out to every endpoint that
 * wants them, and moves the cursor past them, in one write transaction: an endpoint wants an
 * event when it is enabled, was made before the event, its client is active on a plan with
 * webhooks, and wantsEvent takes it (its filters; a private event goes only to its owner's
 * endpoints, of the saved searches they chose). One INSERT ... SELECT, so a pass costs
 * one statement whatever the number of endpoints. CROSS JOIN keeps the events of the pass as
 * the outer loop: with a plain join SQLite may start from the endpoints and walk the events
 * from each one's after_event_id, which grows with every event ever recorded.
 */
export async function fanOut(
  sql: Sql,
  maxEvents: number,
  now = new Date(),
): Promise<{ fromEventId: number; toEventId: number; deliveries: number }> {
  // Most passes find nothing new: asked with a read first, so an idle worker never takes the write lock.
  const seen = await dispatchCursor(sql);
  if ((await sql.get('SELECT 1 AS found FROM events WHERE id > ? LIMIT 1', [seen])) === undefined)
    return { fromEventId: seen, toEventId: seen, deliveries: 0 };
  return sql.transaction(async (tx) => {
    const from = await dispatchCursor(tx);
    const upper = (await tx.get<{ id: number | null }>(
      'SELECT max(id) AS id FROM (SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ?) AS pass',
      [from, maxEvents],
    ))!.id;
    if (upper === null) return { fromEventId: from, toEventId: from, deliveries: 0 };
    const at = now.toISOString();
    const inserted = await tx.run(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at, updated_at)
       SELECT e.id, ev.id, CAST(@at AS TEXT), CAST(@at AS TEXT), CAST(@at AS TEXT)
       FROM events ev
       CROSS JOIN webhook_endpoints e
       JOIN clients c ON c.id = e.client_id
       JOIN plans p ON p.code = c.plan
       WHERE ev.id > @from AND ev.id <= @upper
         AND e.status = 'enabled' AND ev.id > e.after_event_id AND c.status = 'active' AND p.webhooks <> 'none'
         AND ${wantsEvent(tx.dialect, ENDPOINT_COLUMNS)}
       ORDER BY ev.id, e.id
       ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      { at, from, upper },
    );
    await advanceDispatchCursor(tx, upper);
    return { fromEventId: from, toEventId: upper, deliveries: inserted.changes };
  });
}

export interface OutboxRow {
  id: number;
  endpointId: string;
  eventId: number;
  generation: number;
}

/** Deliveries written but not yet handed to the queue, oldest first. */
export function outbox(sql: Sql, limit: number): Promise<OutboxRow[]> {
  return sql.all<OutboxRow>(
    'SELECT id, endpoint_id AS "endpointId", event_id AS "eventId", generation FROM webhook_deliveries WHERE enqueued = 0 ORDER BY id LIMIT ?',
    [limit],
  );
}

/** Marks rows as queued; a row replayed in between (a new generation) stays in the outbox. */
export async function markEnqueued(sql: Sql, rows: readonly OutboxRow[]): Promise<void> {
  await sql.transaction(async (tx) => {
    for (const r of rows) await tx.run('UPDATE webhook_deliveries SET enqueued = 1 WHERE id = ? AND generation = ?', [r.id, r.generation]);
  });
}

/** What the worker needs to know before it sends. */
export interface DeliveryState {
  id: number;
  endpointId: string;
  eventId: number;
  generation: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
}

export async function deliveryState(sql: Sql, id: number): Promise<DeliveryState | null> {
  const row = await sql.get<DeliveryState>(
    `SELECT id, endpoint_id AS "endpointId", event_id AS "eventId", generation, status, attempts, next_attempt_at AS "nextAttemptAt"
     FROM webhook_deliveries WHERE id = ?`,
    [id],
  );
  return row ?? null;
}

/** An attempt and what follows it: delivered, another attempt at retryAt, or failed for good. */
export interface AttemptOutcome extends WebhookAttempt {
  endpointId: string;
  next: { kind: 'delivered' } | { kind: 'retry'; at: string } | { kind: 'failed' };
  /** The receiver answered 410 Gone: the endpoint is disabled at once. */
  gone: boolean;
}

/**
 * Writes a batch of attempts and their consequences in one transaction (the worker groups the
 * attempts that end close together, so a busy worker commits tens of attempts at once rather
 * than one each). Returns the endpoints this batch disabled.
 */
export function recordOutcomes(sql: Sql, outcomes: readonly AttemptOutcome[], disableAfterMs: number): Promise<string[]> {
  return sql.transaction(async (tx) => {
    const disabled: string[] = [];
    for (const o of outcomes) {
      await insertAttempt(tx, o);
      const at = new Date(Date.parse(o.startedAt) + o.durationMs).toISOString();
      await tx.run(
        `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @next, last_error = @error, updated_at = @at
         WHERE id = @id AND generation = @generation`,
        {
          id: o.deliveryId,
          generation: o.generation,
          status: o.next.kind === 'retry' ? 'pending' : o.next.kind,
          next: o.next.kind === 'retry' ? o.next.at : null,
          error: o.next.kind === 'delivered' ? null : (o.error ?? `HTTP ${o.httpStatus}`),
          at,
        },
      );
      if (o.gone) {
        if ((await setEndpointStatus(tx, o.endpointId, { status: 'disabled', reason: 'gone' }, new Date(at)))?.disabledReason === 'gone')
          disabled.push(o.endpointId);
      } else if (await noteAttemptOutcome(tx, o.endpointId, o.next.kind === 'delivered', o.startedAt, disableAfterMs))
        disabled.push(o.endpointId);
    }
    return [...new Set(disabled)];
  });
}

/** A delivery that cannot be attempted (its endpoint is disabled): failed, with why; replay sends it later. */
export async function failWithoutAttempt(sql: Sql, id: number, generation: number, reason: string, now = new Date()): Promise<void> {
  await sql.run(
    "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ?, updated_at = ? WHERE id = ? AND generation = ? AND status = 'pending'",
    [reason, now.toISOString(), id, generation],
  );
}

/** Pending deliveries queued long ago and still not attempted when due: their jobs may be gone (a Redis without its data). */
export function overdueDeliveries(sql: Sql, dueBefore: string, limit: number): Promise<OutboxRow[]> {
  return sql.all<OutboxRow>(
    `SELECT id, endpoint_id AS "endpointId", event_id AS "eventId", generation FROM webhook_deliveries
     WHERE status = 'pending' AND enqueued = 1 AND next_attempt_at < ? ORDER BY next_attempt_at LIMIT ?`,
    [dueBefore, limit],
  );
}

export interface DeliveryListing {
  rows: (WebhookDelivery & { attemptLog: WebhookAttempt[] })[];
  total: number;
}

/** An endpoint's deliveries, newest first, each with every attempt. */
export async function listDeliveries(
  sql: Sql,
  endpointId: string,
  filter: { status?: DeliveryStatus; eventId?: number; limit: number; offset: number },
): Promise<DeliveryListing> {
  const clauses = ['d.endpoint_id = @endpointId'];
  if (filter.status) clauses.push('d.status = @status');
  if (filter.eventId !== undefined) clauses.push('d.event_id = @eventId');
  const where = clauses.join(' AND ');
  const args = { endpointId, status: filter.status ?? null, eventId: filter.eventId ?? null };
  const total = (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries d WHERE ${where}`, args))!.n;
  const rows = (
    await sql.all<Row>(`${SELECT_DELIVERY} WHERE ${where} ORDER BY d.id DESC LIMIT @limit OFFSET @offset`, {
      ...args,
      limit: filter.limit,
      offset: filter.offset,
    })
  ).map(mapRow);
  const attempts = await attemptsOf(
    sql,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => ({ ...r, attemptLog: attempts.get(r.id) ?? [] })), total };
}

/** Why one event cannot be replayed to an endpoint. */
export class ReplayError extends Error {
  override name = 'ReplayError';
  constructor(
    readonly code: 'endpoint_disabled' | 'unknown_event' | 'not_subscribed',
    message: string,
  ) {
    super(message);
  }
}

export type ReplayScope = { eventId: number } | { from: string; to: string };

export interface ReplayOptions {
  /** The client's replay budget (WEBHOOK_REPLAYS_PER_MINUTE): one replay, of one event or a range, spends one. */
  perMinute: number;
  now?: Date;
}

/**
 * Sends events again to one endpoint: one event, or every event it subscribes to recorded in
 * [from, to). Each becomes a pending delivery of a new generation, back in the outbox; one
 * already pending is left alone (it is on its way), so a replay never makes two deliveries.
 * Each replay spends one of the client's replays (webhook-replay-budget.ts), in the same
 * transaction as its rows: a refused one (ReplayLimitError, or ReplayError) changes nothing.
 * Returns how many deliveries it queued.
 */
export async function replay(sql: Sql, endpoint: WebhookEndpoint, scope: ReplayScope, options: ReplayOptions): Promise<number> {
  const now = options.now ?? new Date();
  if (endpoint.status !== 'enabled')
    throw new ReplayError(
      'endpoint_disabled',
      `endpoint ${endpoint.id} is disabled (${endpoint.disabledReason}); enable it before replaying`,
    );
  const params = {
    endpoint: endpoint.id,
    at: now.toISOString(),
    client: endpoint.clientId,
    types: endpoint.types === null ? null : JSON.stringify(endpoint.types),
    counties: endpoint.counties === null ? null : JSON.stringify(endpoint.counties),
    savedSearches: endpoint.savedSearches === null ? null : JSON.stringify(endpoint.savedSearches),
  };
  // The target's columns are named with the table in DO UPDATE: PostgreSQL finds a bare name ambiguous there.
  const upsert = (range: string, rangeArgs: Record<string, unknown>) =>
    sql.transaction(async (tx) => {
      await spendReplay(tx, endpoint.clientId, options.perMinute, now);
      return (
        await tx.run(
          `INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at, updated_at)
           SELECT CAST(@endpoint AS TEXT), ev.id, CAST(@at AS TEXT), CAST(@at AS TEXT), CAST(@at AS TEXT)
           FROM events ev WHERE ${range} AND ${wantsEvent(tx.dialect, REPLAY_PARAMS)} ORDER BY ev.id
           ON CONFLICT (endpoint_id, event_id) DO UPDATE SET generation = webhook_deliveries.generation + 1, status = 'pending', attempts = 0,
             next_attempt_at = excluded.next_attempt_at, enqueued = 0, last_error = NULL, updated_at = excluded.updated_at
           WHERE webhook_deliveries.status <> 'pending'`,
          { ...params, ...rangeArgs },
        )
      ).changes;
    });
  if ('eventId' in scope) {
    const event = await sql.get<{ type: string; county_slug: string | null; client_id: string | null; saved_search_id: string | null }>(
      'SELECT type, county_slug, client_id, saved_search_id FROM events WHERE id = ?',
      [scope.eventId],
    );
    const shown = publicEventId(scope.eventId);
    // Another client's private event is as unknown as a missing one: that it exists is not this client's to learn.
    if (!event || (event.client_id !== null && event.client_id !== endpoint.clientId))
      throw new ReplayError('unknown_event', `no event ${shown} (unknown, or pruned after the retention period)`);
    const typeOk = endpoint.types === null || endpoint.types.includes(event.type as EventType);
    const countyOk = endpoint.counties === null || (event.county_slug !== null && endpoint.counties.includes(event.county_slug));
    const searchOk =
      event.saved_search_id === null || endpoint.savedSearches === null || endpoint.savedSearches.includes(event.saved_search_id);
    if (!typeOk || !countyOk || !searchOk)
      throw new ReplayError(
        'not_subscribed',
        `endpoint ${endpoint.id} does not subscribe to ${shown} (${event.type}${event.county_slug ? `, ${event.county_slug}` : ''})`,
      );
    return upsert('ev.id = @eventId', { eventId: scope.eventId });
  }
  return upsert('ev.created_at >= @from AND ev.created_at < @to', { from: scope.from, to: scope.to });
}
