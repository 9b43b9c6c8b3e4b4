import type { Sql } from '../../control/db/sql.ts';
import type { SecretBox } from '../../control/feed/webhook-secrets.ts';
import { ApiError } from '../errors.ts';

/**
 * The Idempotency-Key of a write, as Stripe has it: a retried request with the same key and the
 * same request (fingerprint.ts) answers the first answer again and changes nothing; the same key
 * with another request is 409 idempotency_conflict. Keys belong to one client and last 24 hours.
 *
 * The row is claimed before the write runs, by an insert the primary key (client, key) lets
 * only one of two concurrent retries make: the other answers 409 (still in progress) instead of
 * running the write a second time. Only an answer the write produced is kept for replay; a
 * refusal it threw (404, 403 limit_reached, ...), a 5xx or a crash releases the key, so a retry
 * runs again. The kept answer is sealed like a signing secret (it may carry one, shown once).
 * Each claim first drops the client's own expired keys, so the table holds about a day of writes.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A claim older than this with no answer was left by a process that died; a retry may take it. */
export const ABANDONED_CLAIM_MS = 60 * 1000;

export interface WriteAnswer {
  status: number;
  body: unknown;
}

export class IdempotencyConflictError extends ApiError {
  constructor(key: string, reason: 'other_request' | 'in_progress') {
    super(
      'idempotency_conflict',
      reason === 'other_request'
        ? `Idempotency-Key ${JSON.stringify(key)} was already used with another request (method, path or body); use a new key for a new request`
        : `a request with Idempotency-Key ${JSON.stringify(key)} is still running; retry it in a moment`,
      { idempotency_key: key, reason },
    );
  }
}

interface Row {
  fingerprint: string;
  status: number | null;
  body: string | null;
}

/**
 * Runs `write` at most once per (client, key) within 24 hours. `replayed` says the answer is a
 * stored one. Without a key the write just runs.
 */
export async function idempotent(
  deps: { sql: Sql; box: SecretBox },
  scope: { clientId: string; key: string | undefined; fingerprint: string },
  write: () => Promise<WriteAnswer>,
  now = new Date(),
): Promise<WriteAnswer & { replayed: boolean }> {
  const { clientId, key, fingerprint } = scope;
  if (key === undefined) return { ...(await write()), replayed: false };
  const { sql, box } = deps;
  const aad = `${clientId}\u0000${key}`;
  await sql.run('DELETE FROM idempotency_keys WHERE client_id = ? AND (created_at < ? OR (status IS NULL AND created_at < ?))', [
    clientId,
    new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString(),
    new Date(now.getTime() - ABANDONED_CLAIM_MS).toISOString(),
  ]);
  const claimed = await sql.run(
    `INSERT INTO idempotency_keys (client_id, idempotency_key, fingerprint, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (client_id, idempotency_key) DO NOTHING`,
    [clientId, key, fingerprint, now.toISOString()],
  );
  if (claimed.changes === 0) {
    const row = await sql.get<Row>('SELECT fingerprint, status, body FROM idempotency_keys WHERE client_id = ? AND idempotency_key = ?', [
      clientId,
      key,
    ]);
    // Gone between the insert and the read: its first request failed and released it. A retry runs it.
    if (!row) throw new IdempotencyConflictError(key, 'in_progress');
    if (row.fingerprint !== fingerprint) throw new IdempotencyConflictError(key, 'other_request');
    if (row.status === null || row.body === null) throw new IdempotencyConflictError(key, 'in_progress');
    return { status: row.status, body: JSON.parse(box.open(Buffer.from(row.body, 'base64'), aad)), replayed: true };
  }
  const release = () =>
    sql.run('DELETE FROM idempotency_keys WHERE client_id = ? AND idempotency_key = ? AND status IS NULL', [clientId, key]);
  let answer: WriteAnswer;
  try {
    answer = await write();
  } catch (err) {
    await release();
    throw err;
  }
  if (answer.status >= 500) await release();
  else
    await sql.run('UPDATE idempotency_keys SET status = ?, body = ? WHERE client_id = ? AND idempotency_key = ?', [
      answer.status,
      box.seal(JSON.stringify(answer.body), aad).toString('base64'),
      clientId,
      key,
    ]);
  return { ...answer, replayed: false };
}
