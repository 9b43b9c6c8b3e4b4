import { inJsonArray, type Sql } from '../db/sql.ts';

/**
 * Every delivery attempt, kept (migration 018), so a customer can see why a delivery failed: when it started, how long
 * it took, the receiver's HTTP status or the network error, and the first 1 KB of the answer.
 */

/** How much of a receiver's answer is kept: enough to see its error message. */
export const RESPONSE_BODY_BYTES = 1024;

export interface WebhookAttempt {
  deliveryId: number;
  generation: number;
  /** 1 for the first attempt of a generation (a replay starts again at 1). */
  attempt: number;
  startedAt: string;
  durationMs: number;
  httpStatus: number | null;
  /** The network failure (timeout, refused connection, address not allowed); null when an HTTP answer came. */
  error: string | null;
  responseBody: string | null;
}

interface Row {
  delivery_id: number;
  generation: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  response_body: string | null;
}

export async function insertAttempt(sql: Sql, a: WebhookAttempt): Promise<void> {
  await sql.run(
    `INSERT INTO webhook_attempts (delivery_id, generation, attempt, started_at, duration_ms, http_status, error, response_body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [a.deliveryId, a.generation, a.attempt, a.startedAt, a.durationMs, a.httpStatus, a.error, a.responseBody],
  );
}

/** The attempts of these deliveries, oldest first, grouped by delivery id. */
export async function attemptsOf(sql: Sql, deliveryIds: readonly number[]): Promise<Map<number, WebhookAttempt[]>> {
  const out = new Map<number, WebhookAttempt[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return out;
  const rows = await sql.all<Row>(
    `SELECT delivery_id, generation, attempt, started_at, duration_ms, http_status, error, response_body FROM webhook_attempts
     WHERE ${inJsonArray(sql.dialect, 'delivery_id', '?', 'integer')} ORDER BY delivery_id, id`,
    [JSON.stringify(deliveryIds)],
  );
  for (const r of rows)
    out.get(r.delivery_id)?.push({
      deliveryId: r.delivery_id,
      generation: r.generation,
      attempt: r.attempt,
      startedAt: r.started_at,
      durationMs: r.duration_ms,
      httpStatus: r.http_status,
      error: r.error,
      responseBody: r.response_body,
    });
  return out;
}
