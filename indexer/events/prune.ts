import { pruneStages } from '../../services/control/feed/event-stage.ts';
import { pruneEvents } from '../../services/control/feed/events.ts';
import type { Sql } from '../../services/control/db/sql.ts';

const DAY_MS = 86_400_000;

/**
 * Events older than the retention (EVENTS_RETENTION_DAYS) are deleted; a client whose cursor
 * falls before the oldest kept then gets 410 cursor_expired. Stages as old belong to jobs
 * that failed for good and were never run again: they go too.
 */
export async function pruneOldEvents(sql: Sql, retentionDays: number, now: Date = new Date()): Promise<{ events: number; stages: number }> {
  const before = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  return { events: await pruneEvents(sql, before), stages: await pruneStages(sql, before) };
}
