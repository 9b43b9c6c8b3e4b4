import type { Database } from 'better-sqlite3';
import { pruneStages } from '../../services/control/event-stage.ts';
import { pruneEvents } from '../../services/control/events.ts';

const DAY_MS = 86_400_000;

/**
 * Events older than the retention (EVENTS_RETENTION_DAYS) are deleted; a client whose cursor
 * falls before the oldest kept then gets 410 cursor_expired. Stages as old belong to jobs
 * that failed for good and were never run again: they go too.
 */
export function pruneOldEvents(db: Database, retentionDays: number, now: Date = new Date()): { events: number; stages: number } {
  const before = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  return { events: pruneEvents(db, before), stages: pruneStages(db, before) };
}
