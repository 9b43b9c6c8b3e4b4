import type { Database } from 'better-sqlite3';
import { statement } from './statements.ts';

/**
 * The dispatcher's durable cursor over the change feed (migration 018): the last event id
 * whose deliveries are written. It moves in the same transaction as those rows, so after a
 * crash the next pass starts exactly where the last committed one ended.
 */

export function dispatchCursor(db: Database): number {
  return (statement(db, 'SELECT last_event_id FROM webhook_dispatch WHERE id = 1').get() as { last_event_id: number }).last_event_id;
}

/** Moves the cursor forward only: a slower process finishing an older pass never moves it back. */
export function advanceDispatchCursor(db: Database, lastEventId: number): void {
  statement(db, 'UPDATE webhook_dispatch SET last_event_id = max(last_event_id, ?) WHERE id = 1').run(lastEventId);
}
