import type { Sql } from '../control/db/sql.ts';
import { publicEventId } from '../control/feed/events.ts';
import { eventTypesOf } from '../domain/event-types.ts';
import { floridaDayBounds } from './florida-day.ts';

/** One line of a certificates delta: what happened to which certificate, and its row after the change. */
export interface DeltaRow {
  [key: string]: unknown;
  /** upsert: put the row in place of any with this id. delete: remove the id (the feed records no removal today). */
  op: 'upsert' | 'delete';
  id: string;
  event_id: string;
  event_type: string;
  changed_at: string;
  row: Record<string, unknown> | null;
}

const TYPES = eventTypesOf('certificate');

/**
 * The public certificate events of one Florida day, oldest first, a page at a time: read from the
 * events table by its created_at index (the whole feed is never scanned for one day). Each event's
 * data.object is the row exactly as the API rendered it at the change.
 */
export async function* certificateDeltaPages(sql: Sql, day: string, pageRows = 2000): AsyncGenerator<DeltaRow[]> {
  const { start, end } = floridaDayBounds(day);
  let after = 0;
  for (;;) {
    const rows = await sql.all<{ id: number; type: string; created_at: string; data: string }>(
      `SELECT id, type, created_at, data FROM events WHERE client_id IS NULL AND created_at >= ? AND created_at < ? AND id > ? AND type IN (${TYPES.map(() => '?').join(', ')}) ORDER BY id LIMIT ?`,
      [start, end, after, ...TYPES, pageRows],
    );
    if (rows.length === 0) return;
    yield rows.map((e) => {
      const object = (JSON.parse(e.data) as { object: Record<string, unknown> }).object;
      return {
        op: 'upsert',
        id: String(object.id),
        event_id: publicEventId(Number(e.id)),
        event_type: e.type,
        changed_at: e.created_at,
        row: object,
      };
    });
    if (rows.length < pageRows) return;
    after = Number(rows[rows.length - 1]!.id);
  }
}

/** The Florida days that have public certificate events, oldest first. */
export async function certificateEventDays(sql: Sql, days: (createdAt: string) => string): Promise<string[]> {
  const rows = await sql.all<{ day: string }>(
    `SELECT DISTINCT substr(created_at, 1, 13) AS day FROM events WHERE client_id IS NULL AND type IN (${TYPES.map(() => '?').join(', ')})`,
    [...TYPES],
  );
  return [...new Set(rows.map((r) => days(`${r.day}:00:00.000Z`)))].sort();
}
