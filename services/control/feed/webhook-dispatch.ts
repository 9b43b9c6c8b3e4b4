import type { Sql } from '../db/sql.ts';

/**
 * The dispatcher's durable cursor over the change feed (migration 018): the last event id
 * whose deliveries are written. It moves in the same transaction as those rows, so after a
 * crash the next pass starts exactly where the last committed one ended.
 */

export async function dispatchCursor(sql: Sql): Promise<number> {
  return (await sql.get<{ last_event_id: number }>('SELECT last_event_id FROM webhook_dispatch WHERE id = 1'))!.last_event_id;
}

/** Moves the cursor forward only: a slower process finishing an older pass never moves it back. */
export async function advanceDispatchCursor(sql: Sql, lastEventId: number): Promise<void> {
  await sql.run('UPDATE webhook_dispatch SET last_event_id = @id WHERE id = 1 AND last_event_id < @id', { id: lastEventId });
}
