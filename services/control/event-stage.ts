import type { Database } from 'better-sqlite3';
import type { EventData, EventInput, EventType } from './events.ts';

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
 * Every transaction here that reads before it writes is IMMEDIATE: a deferred one holds a read
 * snapshot that cannot wait for another process's write lock (SQLITE_BUSY at once, whatever the
 * busy timeout), and the API, the CLI and other workers write the same file.
 */

/**
 * Opens a job's stage for its file. 'staged': a complete stage of this same file is waiting
 * (the job ran before and did not publish): publish it and compute nothing. 'fresh': an
 * empty stage was opened, after throwing away one cut off by a crash (nothing of it can have
 * reached the index: staging ends before pass 2) or one of other bytes under the same job id.
 */
export function openStage(db: Database, run: StageRun): 'staged' | 'fresh' {
  return db
    .transaction(() => {
      const found = db
        .prepare<[string], { file_sha256: string; complete: number }>('SELECT file_sha256, complete FROM event_stage_runs WHERE job_id = ?')
        .get(run.jobId);
      if (found?.complete === 1 && found.file_sha256 === run.fileSha256) return 'staged' as const;
      db.prepare('DELETE FROM event_stage_runs WHERE job_id = ?').run(run.jobId);
      db.prepare('INSERT INTO event_stage_runs (job_id, file_sha256, county_slug, tax_year) VALUES (?, ?, ?, ?)').run(
        run.jobId,
        run.fileSha256,
        run.countySlug,
        run.taxYear,
      );
      return 'fresh' as const;
    })
    .immediate();
}

/** Appends events to an open stage, in one transaction. */
export function addStaged(db: Database, jobId: string, events: readonly StagedEvent[]): void {
  if (events.length === 0) return;
  const insert = db.prepare('INSERT INTO event_stage (job_id, doc_id, type, county_slug, data) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const e of events) insert.run(jobId, e.docId, e.type, e.countySlug, JSON.stringify(e.data));
  }).immediate();
}

/**
 * Marks a stage complete: from now on a retry publishes it. A stage with no event is removed
 * instead (nothing to publish, and a retry that compares again finds the same nothing).
 * Returns the number of events staged.
 */
export function completeStage(db: Database, jobId: string): number {
  return db.transaction(() => {
    const staged = (db.prepare('SELECT count(*) AS n FROM event_stage WHERE job_id = ?').get(jobId) as { n: number }).n;
    if (staged === 0) db.prepare('DELETE FROM event_stage_runs WHERE job_id = ?').run(jobId);
    else db.prepare('UPDATE event_stage_runs SET complete = 1 WHERE job_id = ?').run(jobId);
    return staged;
  }).immediate();
}

/** The data of the job's staged event of this type (the first one), or null. */
export function stagedData(db: Database, jobId: string, type: EventType): EventData | null {
  const row = db
    .prepare<[string, string], { data: string }>('SELECT data FROM event_stage WHERE job_id = ? AND type = ? ORDER BY id LIMIT 1')
    .get(jobId, type);
  return row ? (JSON.parse(row.data) as EventData) : null;
}

export interface PublishOptions {
  /** Documents the engine refused in pass 2: never written, so their events are dropped. */
  refused?: ReadonlySet<string>;
  /** New data for the staged events of a type, known only once the file is searchable (a first load's count). */
  rewrite?: Partial<Record<EventType, EventData>>;
}

/**
 * Moves a job's complete stage into events and clears it, in one transaction: the ids are
 * given now, after the documents became searchable, in the order they were staged. Returns
 * how many events were published (0 when the job has no complete stage: nothing changed, or
 * it published already).
 */
export function publishStage(db: Database, jobId: string, options: PublishOptions = {}): number {
  return db
    .transaction(() => {
      const run = db.prepare<[string], { complete: number }>('SELECT complete FROM event_stage_runs WHERE job_id = ?').get(jobId);
      if (run?.complete !== 1) return 0;
      const drop = db.prepare('DELETE FROM event_stage WHERE job_id = ? AND doc_id = ?');
      for (const id of options.refused ?? []) drop.run(jobId, id);
      const rewrite = db.prepare('UPDATE event_stage SET data = ? WHERE job_id = ? AND type = ?');
      for (const [type, data] of Object.entries(options.rewrite ?? {})) rewrite.run(JSON.stringify(data), jobId, type);
      const published = db
        .prepare('INSERT INTO events (type, county_slug, data) SELECT type, county_slug, data FROM event_stage WHERE job_id = ? ORDER BY id')
        .run(jobId).changes;
      db.prepare('DELETE FROM event_stage_runs WHERE job_id = ?').run(jobId);
      return published;
    })
    .immediate();
}

/** Stages older than the cutoff (ISO time): jobs that failed for good and were never run again. */
export function pruneStages(db: Database, before: string): number {
  return db.prepare('DELETE FROM event_stage_runs WHERE created_at < ?').run(before).changes;
}

/** Jobs with a stage, for tests and status output. */
export function stagedJobs(db: Database): { jobId: string; complete: boolean; events: number }[] {
  return (
    db
      .prepare(
        `SELECT r.job_id AS jobId, r.complete AS complete, (SELECT count(*) FROM event_stage s WHERE s.job_id = r.job_id) AS events
         FROM event_stage_runs r ORDER BY r.job_id`,
      )
      .all() as { jobId: string; complete: number; events: number }[]
  ).map((r) => ({ ...r, complete: r.complete === 1 }));
}

/** Throws a job's stage away unpublished (its load made nothing searchable). */
export function discardStage(db: Database, jobId: string): void {
  db.prepare('DELETE FROM event_stage_runs WHERE job_id = ?').run(jobId);
}
