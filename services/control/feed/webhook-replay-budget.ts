import type { Sql } from '../db/sql.ts';

/**
 * How many replays a client may ask for (migration 023): a token bucket of `perMinute` replays
 * that refills continuously, kept as one time per client (GCRA: each replay pushes the client's
 * `next_free_at` one emission interval, 60 s / perMinute, later; a replay that would push it more
 * than a minute past now is refused). Every place a replay is asked for (the account page, the
 * CLI) goes through replay() in webhook-deliveries.ts, which spends from here inside its own
 * write transaction, so a refused replay changes nothing and two at once cannot both take the
 * last one.
 */

export const REPLAY_WINDOW_MS = 60_000;

/** The client has used its replays for now; retryAfterMs says when the next one is free. */
export class ReplayLimitError extends Error {
  override name = 'ReplayLimitError';
  readonly code = 'replay_limit';
  constructor(
    readonly perMinute: number,
    readonly retryAfterMs: number,
  ) {
    super(`at most ${perMinute} replays a minute; the next one is possible in ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

/** Takes one replay from the client's bucket, or throws ReplayLimitError. Call with a write transaction's tx. */
export async function spendReplay(tx: Sql, clientId: string, perMinute: number, now: Date): Promise<void> {
  const at = now.getTime();
  const interval = REPLAY_WINDOW_MS / perMinute;
  const row = await tx.get<{ next_free_at: number }>('SELECT next_free_at FROM webhook_replay_budget WHERE client_id = ?', [clientId]);
  const next = Math.max(row?.next_free_at ?? at, at) + interval;
  if (next - at > REPLAY_WINDOW_MS) throw new ReplayLimitError(perMinute, Math.ceil(next - at - REPLAY_WINDOW_MS));
  await tx.run(
    `INSERT INTO webhook_replay_budget (client_id, next_free_at) VALUES (@client, @next)
     ON CONFLICT (client_id) DO UPDATE SET next_free_at = excluded.next_free_at`,
    { client: clientId, next: Math.round(next) },
  );
}
