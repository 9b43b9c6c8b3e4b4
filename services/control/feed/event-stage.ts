import { type EventData, type EventInput, type EventType, insertEvents } from './events.ts';
import type { Sql } from '../db/sql.ts';
import { savedSearchOwners } from './saved-searches.ts';

/**
 * The change feed's stage (migration 015): the events an ingest job computed between its
 * passes, kept until its documents are searchable and then moved into events in one
 * transaction. Keyed by the job id and checked against the file's hash, so a retried job
 * publishes what it staged before the crash instead of comparing its file with an index it
 * had half written, and a job that published has nothing left to publish.
 */

export interface StagedEvent extends EventInput {
  /** The certificate the event is about; null for an event about the whole file. */
  docId: string | null;
}

export interface StageRun {
  jobId: string;
  fileSha256: string;
  countySlug: string;
  taxYear: number;
}

/*
 * Every read-then-write here is one write transaction (BEGIN IMMEDIATE on SQLite, the plane's
 * lock on PostgreSQL): the API, the CLI and other workers write the same tables.
 */

/**
 * Opens a job's stage for its file. 'staged': a complete stage of this same file is waiting
 * (the job ran before and did not publish): publish it and compute nothing. 'fresh': an
 * empty stage was opened, after throwing away one cut off by a crash (nothing of it can have
 * reached the index: staging ends before pass 2) or one of other bytes under the same job id.
 */
export async function openStage(sql: Sql, run: StageRun): Promise<'staged' | 'fresh'> {
  return sql.transaction(async (tx) => {
    const found = await tx.get<{ file_sha256: string; complete: number }>(
      'SELECT file_sha256, complete FROM event_stage_runs WHERE job_id = ?',
      [run.jobId],
    );
    if (found?.complete === 1 && found.file_sha256 === run.fileSha256) return 'staged' as const;
    await tx.run('DELETE FROM event_stage_runs WHERE job_id = ?', [run.jobId]);
    await tx.run('INSERT INTO event_stage_runs (job_id, file_sha256, county_slug, tax_year) VALUES (?, ?, ?, ?)', [
      run.jobId,
      run.fileSha256,
      run.countySlug,
      run.taxYear,
    ]);
    return 'fresh' as const;
  });
}

/** Appends events to an open stage, in one transaction. */
export async function addStaged(sql: Sql, jobId: string, events: readonly StagedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const json = sharedJson();
  await sql.transaction(async (tx) => {
    for (let i = 0; i < events.length; i += STAGE_ROWS) {
      const rows = events.slice(i, i + STAGE_ROWS);
      await tx.run(
        `INSERT INTO event_stage (job_id, doc_id, type, county_slug, data, client_id, saved_search_id, portfolio_id, position_id)
         VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap((e) => [
          jobId,
          e.docId,
          e.type,
          e.countySlug,
          json(e.data),
          e.owner?.clientId ?? null,
          e.owner?.savedSearchId ?? null,
          e.owner?.portfolioId ?? null,
          e.owner?.positionId ?? null,
        ]),
      );
    }
  });
}

/**
 * Rows a stage insert carries: one statement per 500 rows (4,500 values, under SQLite's 32,766
 * and PostgreSQL's 65,535) instead of one per row, which on PostgreSQL was a round trip each for
 * the 160,000 private events of a broad county update.
 */
const STAGE_ROWS = 500;

/**
 * JSON.stringify of an event's data, each object-valued field written once per call however many
 * events share it: a change's private events (one per saved search or portfolio it concerns)
 * carry the same certificate row and previous values, which were serialized again for each.
 * Gives exactly JSON.stringify's text.
 */
function sharedJson(): (data: object) => string {
  const written = new WeakMap<object, string>();
  const field = (v: unknown): string => {
    if (typeof v !== 'object' || v === null) return JSON.stringify(v);
    let text = written.get(v);
    if (text === undefined) {
      text = JSON.stringify(v);
      written.set(v, text);
    }
    return text;
  };
  return (data) => {
    if (Array.isArray(data) || typeof (data as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(data);
    const parts: string[] = [];
    for (const [k, v] of Object.entries(data)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      parts.push(`${JSON.stringify(k)}:${field(v)}`);
    }
    return `{${parts.join(',')}}`;
  };
}

/**
 * Marks a stage complete: from now on a retry publishes it. A stage with no event is removed
 * instead (nothing to publish, and a retry that compares again finds the same nothing).
 * Returns the number of events staged.
 */
export async function completeStage(sql: Sql, jobId: string): Promise<number> {
  return sql.transaction(async (tx) => {
    const staged = (await tx.get<{ n: number }>('SELECT count(*) AS n FROM event_stage WHERE job_id = ?', [jobId]))!.n;
    if (staged === 0) await tx.run('DELETE FROM event_stage_runs WHERE job_id = ?', [jobId]);
    else await tx.run('UPDATE event_stage_runs SET complete = 1 WHERE job_id = ?', [jobId]);
    return staged;
  });
}

/** The data of the job's staged event of this type (the first one), or null. */
export async function stagedData(sql: Sql, jobId: string, type: EventType): Promise<EventData | null> {
  const row = await sql.get<{ data: string }>('SELECT data FROM event_stage WHERE job_id = ? AND type = ? ORDER BY id LIMIT 1', [
    jobId,
    type,
  ]);
  return row ? (JSON.parse(row.data) as EventData) : null;
}

export interface PublishOptions {
  /** Documents the engine refused in pass 2: never written, so their events are dropped. */
  refused?: ReadonlySet<string>;
  /** New data for the staged events of a type, known only once the file is searchable (a first load's count). */
  rewrite?: Partial<Record<EventType, EventData>>;
  /** Events known only once the file is searchable (each saved search's count of a first load), after the staged ones. */
  append?: readonly EventInput[];
}

/**
 * Moves a job's complete stage into events and clears it, in one transaction: the ids are
 * given now, after the documents became searchable, in the order they were staged. Returns
 * how many events were published (0 when the job has no complete stage: nothing changed, or
 * it published already).
 */
export async function publishStage(sql: Sql, jobId: string, options: PublishOptions = {}): Promise<number> {
  return sql.transaction(async (tx) => {
    const run = await tx.get<{ complete: number }>('SELECT complete FROM event_stage_runs WHERE job_id = ?', [jobId]);
    if (run?.complete !== 1) return 0;
    for (const id of options.refused ?? []) await tx.run('DELETE FROM event_stage WHERE job_id = ? AND doc_id = ?', [jobId, id]);
    for (const [type, data] of Object.entries(options.rewrite ?? {}))
      await tx.run('UPDATE event_stage SET data = ? WHERE job_id = ? AND type = ?', [JSON.stringify(data), jobId, type]);
    // A saved search deleted since its events were staged records nothing more.
    await tx.run(
      'DELETE FROM event_stage WHERE job_id = ? AND saved_search_id IS NOT NULL AND saved_search_id NOT IN (SELECT id FROM saved_searches)',
      [jobId],
    );
    // So does a portfolio deleted since, or a position removed from it.
    await tx.run(
      `DELETE FROM event_stage WHERE job_id = ? AND (
         (portfolio_id IS NOT NULL AND portfolio_id NOT IN (SELECT id FROM portfolios))
         OR (position_id IS NOT NULL AND position_id NOT IN (SELECT id FROM portfolio_positions)))`,
      [jobId],
    );
    const published = (
      await tx.run(
        `INSERT INTO events (type, county_slug, data, client_id, saved_search_id, portfolio_id)
         SELECT type, county_slug, data, client_id, saved_search_id, portfolio_id FROM event_stage WHERE job_id = ? ORDER BY id`,
        [jobId],
      )
    ).changes;
    // The appended events go straight in, after the staged ones: a first load's thousand counts
    // were written twice and deleted once on their way through the stage.
    const appended = await insertEvents(tx, await withLiveSearches(tx, options.append ?? []));
    await tx.run('DELETE FROM event_stage_runs WHERE job_id = ?', [jobId]);
    return published + appended;
  });
}

/** The events whose saved search (if they have one) still exists, read in the caller's transaction. */
async function withLiveSearches(tx: Sql, events: readonly EventInput[]): Promise<EventInput[]> {
  const named = [...new Set(events.flatMap((e) => (e.owner?.savedSearchId ? [e.owner.savedSearchId] : [])))];
  const live = await savedSearchOwners(tx, named);
  return events.filter((e) => !e.owner?.savedSearchId || live.has(e.owner.savedSearchId));
}

/** Stages older than the cutoff (ISO time): jobs that failed for good and were never run again. */
export async function pruneStages(sql: Sql, before: string): Promise<number> {
  return (await sql.run('DELETE FROM event_stage_runs WHERE created_at < ?', [before])).changes;
}

/** Jobs with a stage, for tests and status output. */
export async function stagedJobs(sql: Sql): Promise<{ jobId: string; complete: boolean; events: number }[]> {
  const rows = await sql.all<{ jobId: string; complete: number; events: number }>(
    `SELECT r.job_id AS "jobId", r.complete AS complete, (SELECT count(*) FROM event_stage s WHERE s.job_id = r.job_id) AS events
     FROM event_stage_runs r ORDER BY r.job_id`,
  );
  return rows.map((r) => ({ ...r, complete: r.complete === 1 }));
}

/** Throws a job's stage away unpublished (its load made nothing searchable). */
export async function discardStage(sql: Sql, jobId: string): Promise<void> {
  await sql.run('DELETE FROM event_stage_runs WHERE job_id = ?', [jobId]);
}
