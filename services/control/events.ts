import type { Database } from 'better-sqlite3';

/**
 * The change feed's table (migration 014): what changed, in the order it became visible.
 * Writers append in one transaction per ingest step; readers walk by id. The ids increase
 * in commit order because SQLite has one writer at a time, which is what lets a client
 * that stores the last id it saw never miss an event.
 */

export const EVENT_TYPES = [
  'certificate.created',
  'certificates.loaded',
  'certificate.redeemed',
  'certificate.tax_deed_applied',
  'certificate.lands_available',
  'certificate.cancelled',
  'certificate.status_changed',
  'certificate.updated',
  'certificate_sale.created',
  'certificate_sale.status_changed',
  'county.coverage_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventData {
  /** The row exactly as the API renders it now (the route's own mapper). */
  object: Record<string, unknown>;
  /** The changed public fields with their old values; {} for a creation. */
  previous: Record<string, unknown>;
}

export interface EventInput {
  type: EventType;
  countySlug: string | null;
  data: EventData;
}

export interface StoredEvent extends EventInput {
  /** The numeric id; the public id is `evt_<id>` (publicEventId). */
  seq: number;
  createdAt: string;
}

interface Row {
  id: number;
  type: string;
  created_at: string;
  county_slug: string | null;
  data: string;
}

export function publicEventId(seq: number): string {
  return `evt_${seq}`;
}

/** The numeric id of `evt_<digits>`, or null when the text is not an event id. */
export function parseEventId(id: string): number | null {
  const match = /^evt_([1-9][0-9]{0,15})$/.exec(id);
  if (!match) return null;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? seq : null;
}

function mapRow(row: Row): StoredEvent {
  return {
    seq: row.id,
    type: row.type as EventType,
    createdAt: row.created_at,
    countySlug: row.county_slug,
    data: JSON.parse(row.data) as EventData,
  };
}

/**
 * Appends events in one transaction and returns the ids given, in order. Call it inside the
 * caller's own transaction when the events must commit with other bookkeeping (better-sqlite3
 * nests it as a savepoint).
 */
export function appendEvents(db: Database, events: readonly EventInput[]): number[] {
  if (events.length === 0) return [];
  const insert = db.prepare<[string, string | null, string], { id: number }>(
    'INSERT INTO events (type, county_slug, data) VALUES (?, ?, ?) RETURNING id',
  );
  const run = db.transaction((batch: readonly EventInput[]) =>
    batch.map((e) => insert.get(e.type, e.countySlug, JSON.stringify(e.data))!.id),
  );
  return run(events);
}

export interface EventFilter {
  /** Only events with a larger id (0: from the first kept event). */
  afterSeq: number;
  types?: readonly string[];
  counties?: readonly string[];
}

function where(filter: EventFilter): { sql: string; args: (string | number)[] } {
  const clauses = ['id > ?'];
  const args: (string | number)[] = [filter.afterSeq];
  if (filter.types?.length) {
    clauses.push(`type IN (${filter.types.map(() => '?').join(', ')})`);
    args.push(...filter.types);
  }
  if (filter.counties?.length) {
    clauses.push(`county_slug IN (${filter.counties.map(() => '?').join(', ')})`);
    args.push(...filter.counties);
  }
  return { sql: clauses.join(' AND '), args };
}

/** Matching events after the cursor, oldest first. */
export function eventsAfter(db: Database, filter: EventFilter, limit: number): StoredEvent[] {
  const { sql, args } = where(filter);
  const rows = db.prepare(`SELECT id, type, created_at, county_slug, data FROM events WHERE ${sql} ORDER BY id LIMIT ?`);
  return (rows.all(...args, limit) as Row[]).map(mapRow);
}

/** How many matching events follow the cursor. */
export function countEventsAfter(db: Database, filter: EventFilter): number {
  const { sql, args } = where(filter);
  return (db.prepare(`SELECT count(*) AS n FROM events WHERE ${sql}`).get(...args) as { n: number }).n;
}

/** The oldest kept id and the last id ever given (0 when none), to tell an expired cursor. */
export function eventBounds(db: Database): { oldestSeq: number | null; lastSeq: number } {
  const oldest = db.prepare('SELECT min(id) AS id FROM events').get() as { id: number | null };
  const last = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").get() as { seq: number } | undefined;
  return { oldestSeq: oldest.id, lastSeq: last?.seq ?? 0 };
}

/** Deletes events created before the cutoff (ISO time); returns how many went. */
export function pruneEvents(db: Database, before: string): number {
  return db.prepare('DELETE FROM events WHERE created_at < ?').run(before).changes;
}
