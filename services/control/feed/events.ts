import { EVENT_TYPES, type EventType } from '../../domain/event-types.ts';
import type { Sql } from '../db/sql.ts';

/**
 * The change feed's table (migration 014): what changed, in the order it became visible.
 * Writers append in one transaction per ingest step; readers walk by id. The ids increase
 * in commit order because one writer appends at a time (SQLite's write lock; on PostgreSQL
 * the plane's default transaction lock, which appendEvents and publishStage take), which is
 * what lets a client that stores the last id it saw never miss an event.
 */

/** The types themselves are the domain's (one table the API's row schema derives from too). */
export { EVENT_TYPES, type EventType };

export interface EventData {
  /** The row exactly as the API renders it now (the route's own mapper). */
  object: Record<string, unknown>;
  /** The changed public fields with their old values; {} for a creation. */
  previous: Record<string, unknown>;
  /** A saved search's event: which search, by its name when recorded. */
  saved_search?: { id: string; name: string };
  /** A portfolio's event: which portfolio, by its name when recorded. */
  portfolio?: { id: string; name: string };
  /** A portfolio's event: the position whose certificate it is (written, or of the followed holder group). */
  position?: { id: string };
  /** portfolio.position_changed: the public event of the certificate's change. */
  change?: EventType;
}

/** portfolio.deadline_approaching: a deadline of a position's certificate, which has no change to tell. */
export interface DeadlineData {
  portfolio: { id: string; name: string };
  position: { id: string };
  /** The certificate row as GET /certificates/{id} renders it on the day of the alert. */
  certificate: Record<string, unknown>;
  kind: string;
  /** The deadline's day, YYYY-MM-DD. */
  date: string;
  /** Days from Florida's day of the alert to the deadline. */
  days_left: number;
}

/**
 * The client an event belongs to, and what of its own the event is about (its saved search, or
 * its portfolio and position): nobody else ever reads the event.
 */
export interface EventOwner {
  clientId: string;
  savedSearchId?: string;
  portfolioId?: string;
  /** Kept on the stage only: a position removed before publish records nothing. */
  positionId?: string;
}

/** An event to record; a deadline's (appendEvents only: nothing stages one) carries DeadlineData. */
export interface EventInput<D extends EventData | DeadlineData = EventData> {
  type: EventType;
  countySlug: string | null;
  data: D;
  /** Absent: a public event, in every client's feed. */
  owner?: EventOwner;
}

/**
 * A recorded event. Its data is typed as a change's, which every type but portfolio.deadline_approaching
 * carries; that one's is DeadlineData (isChangeData tells them apart).
 */
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
  client_id: string | null;
  saved_search_id: string | null;
  portfolio_id: string | null;
}

const COLUMNS = 'id, type, created_at, county_slug, data, client_id, saved_search_id, portfolio_id';

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
    ...(row.client_id === null ? {} : { owner: ownerOf(row.client_id, row.saved_search_id, row.portfolio_id) }),
  };
}

function ownerOf(clientId: string, savedSearchId: string | null, portfolioId: string | null): EventOwner {
  return {
    clientId,
    ...(savedSearchId === null ? {} : { savedSearchId }),
    ...(portfolioId === null ? {} : { portfolioId }),
  };
}

/** Whether the event's data tells a change (object and previous), as every type but a deadline's does. */
export function isChangeData(data: EventData | DeadlineData): data is EventData {
  return 'object' in data;
}

/**
 * Appends events in one transaction and returns the ids given, in order. Call it with the
 * caller's own transaction's `tx` when the events must commit with other bookkeeping (it
 * joins that transaction).
 */
export async function appendEvents(sql: Sql, events: readonly EventInput<EventData | DeadlineData>[]): Promise<number[]> {
  if (events.length === 0) return [];
  return sql.transaction(async (tx) => {
    const ids: number[] = [];
    for (const e of events) {
      const row = await tx.get<{ id: number }>(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, eventRow(e));
      ids.push(row!.id);
    }
    return ids;
  });
}

/**
 * Appends events as appendEvents does, 500 rows a statement and without their ids: for the
 * thousand events of one first load (each saved search's count), written in its publish.
 */
export async function insertEvents(tx: Sql, events: readonly EventInput[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < events.length; i += INSERT_ROWS) {
    const rows = events.slice(i, i + INSERT_ROWS);
    written += (
      await tx.run(
        `INSERT INTO events (${EVENT_COLUMNS}) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap(eventRow),
      )
    ).changes;
  }
  return written;
}

/** Rows an insert carries: 3,000 values, under SQLite's 32,766 and PostgreSQL's 65,535. */
const INSERT_ROWS = 500;

const EVENT_COLUMNS = 'type, county_slug, data, client_id, saved_search_id, portfolio_id';

/** An event's values in EVENT_COLUMNS' order. */
function eventRow(e: EventInput<EventData | DeadlineData>): (string | null)[] {
  return [
    e.type,
    e.countySlug,
    JSON.stringify(e.data),
    e.owner?.clientId ?? null,
    e.owner?.savedSearchId ?? null,
    e.owner?.portfolioId ?? null,
  ];
}

export interface EventFilter {
  /**
   * The client reading: it sees the public events and its own private ones (its saved searches'
   * matches, its portfolios' alerts), never another client's. Every read for a client names it; the webhook worker, which
   * sends rows fan-out already chose, reads by id with allEventsAfter instead.
   */
  viewer: string;
  /** Only events with a larger id (0: from the first kept event). */
  afterSeq: number;
  types?: readonly string[];
  counties?: readonly string[];
}

function where(filter: EventFilter): { text: string; args: (string | number)[] } {
  const clauses = ['id > ?', '(client_id IS NULL OR client_id = ?)'];
  const args: (string | number)[] = [filter.afterSeq, filter.viewer];
  if (filter.types?.length) {
    clauses.push(`type IN (${filter.types.map(() => '?').join(', ')})`);
    args.push(...filter.types);
  }
  if (filter.counties?.length) {
    clauses.push(`county_slug IN (${filter.counties.map(() => '?').join(', ')})`);
    args.push(...filter.counties);
  }
  return { text: clauses.join(' AND '), args };
}

/** The viewer's matching events after the cursor, oldest first. */
export async function eventsAfter(sql: Sql, filter: EventFilter, limit: number): Promise<StoredEvent[]> {
  const { text, args } = where(filter);
  const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM events WHERE ${text} ORDER BY id LIMIT ?`, [...args, limit]);
  return rows.map(mapRow);
}

/** How many of the viewer's matching events follow the cursor: another client's private events are never counted. */
export async function countEventsAfter(sql: Sql, filter: EventFilter): Promise<number> {
  const { text, args } = where(filter);
  return (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM events WHERE ${text}`, args))!.n;
}

/**
 * The newest events of one saved search for the client that owns it, newest first: the account
 * page's recent alerts. Both owner columns are matched, so an event is shown only to its client
 * even if a search id were ever reused (index events_saved_search_id serves the order).
 */
export async function recentSavedSearchEvents(
  sql: Sql,
  owner: { clientId: string; savedSearchId: string },
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM events WHERE saved_search_id = ? AND client_id = ? ORDER BY id DESC LIMIT ?`, [
    owner.savedSearchId,
    owner.clientId,
    limit,
  ]);
  return rows.map(mapRow);
}

/**
 * The newest events about one certificate that a client may read (the public ones and its own,
 * never another client's), newest first: the explorer's certificate page. An event names its
 * certificate only inside its data (the row as recorded), so the county's events are narrowed by
 * the id's text and then kept only where the row's own id is it.
 */
export async function certificateEvents(
  sql: Sql,
  filter: { viewer: string; countySlug: string; certificateId: string },
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await sql.all<Row>(
    `SELECT ${COLUMNS} FROM events WHERE county_slug = ? AND (client_id IS NULL OR client_id = ?) AND data LIKE ? ORDER BY id DESC LIMIT ?`,
    [filter.countySlug, filter.viewer, `%"${filter.certificateId}"%`, limit],
  );
  return rows.map(mapRow).filter((e) => certificateIdOf(e.data) === filter.certificateId);
}

function certificateIdOf(data: EventData | DeadlineData): unknown {
  return isChangeData(data) ? data.object.id : data.certificate.id;
}

/**
 * Every event after the id, whoever owns it, oldest first. Not a client's read: the webhook worker
 * renders the bodies of deliveries fan-out already addressed to their owners' endpoints (and tests
 * look at everything recorded). A client's feed goes through eventsAfter, which names the viewer.
 */
export async function allEventsAfter(sql: Sql, afterSeq: number, limit: number): Promise<StoredEvent[]> {
  const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM events WHERE id > ? ORDER BY id LIMIT ?`, [afterSeq, limit]);
  return rows.map(mapRow);
}

/** The oldest kept id and the last id ever given (0 when none), to tell an expired cursor. */
export async function eventBounds(sql: Sql): Promise<{ oldestSeq: number | null; lastSeq: number }> {
  const oldest = (await sql.get<{ id: number | null }>('SELECT min(id) AS id FROM events'))!;
  // The last id ever given survives pruning in the id generator: AUTOINCREMENT's sqlite_sequence,
  // PostgreSQL's sequence behind the id column (null before its first use).
  const last =
    sql.dialect === 'sqlite'
      ? await sql.get<{ seq: number | null }>("SELECT seq FROM sqlite_sequence WHERE name = 'events'")
      : await sql.get<{ seq: number | null }>("SELECT pg_sequence_last_value(pg_get_serial_sequence('events', 'id')) AS seq");
  return { oldestSeq: oldest.id, lastSeq: last?.seq ?? 0 };
}

/**
 * Read inside a snapshot: the id up to which every event is in the snapshot or never will be
 * (pruned, or its transaction rolled back), so a cursor may move to it without skipping one
 * still being written; null when the snapshot cannot tell. SQLite's sqlite_sequence is a table,
 * read in the snapshot with the rows. PostgreSQL's sequence is not transactional: it counts ids
 * given to writers that have not committed yet, so the newest event the snapshot sees answers
 * instead (writers commit in id order, one at a time), and an empty table says nothing.
 */
export async function settledEventSeq(sql: Sql): Promise<number | null> {
  if (sql.dialect === 'sqlite') return (await eventBounds(sql)).lastSeq;
  return (await sql.get<{ id: number | null }>('SELECT max(id) AS id FROM events'))!.id;
}

/** Deletes events created before the cutoff (ISO time); returns how many went. */
export async function pruneEvents(sql: Sql, before: string): Promise<number> {
  return (await sql.run('DELETE FROM events WHERE created_at < ?', [before])).changes;
}
