import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Client } from '@opensearch-project/opensearch';
import { INDEX, type RawRow, ROW, type RowProblem } from '../adapters/types.ts';
import { type BulkFailure, type BulkTotals, createBulkWriter } from './bulk.ts';
import { FileRejectedError } from '../errors.ts';
import { aliasName, type FileDataset } from '../../services/domain/datasets.ts';
import { createLanes, type Lanes, lanesIdle } from './lane.ts';
import { RefreshGroup } from './refresh-group.ts';
import { SeenIds } from './seen-ids.ts';
import { BulkSpool, type HeldRow, QuarantineSpool } from './spool.ts';

/**
 * How every dataset file is loaded. A file is read twice: pass 1 (validateFile)
 * validates every row into a spool on local disk (refused rows wait on disk too);
 * between the passes the organizer (process-file.ts) may fail a file with no valid
 * row or set documents aside (ValidatedFile.setAside); pass 2 (indexFile) bulk-loads
 * the spool only once the whole file proved sound, and the refused rows are handed
 * over (refusedRows) only then. A FileRejectedError anywhere in pass 1 (empty, not
 * this format, cut off, another county's) leaves the index and the quarantine
 * untouched, in memory that does not grow with the file. Bulk mode is the
 * caller's (process-file.ts holds it for the whole job).
 */

export type { HeldRow };

/** What a builder makes of one row: a validated record, or every reason it cannot be one. */
export type Built<T> = { ok: true; record: T } | { ok: false; reasons: RowProblem[] };

/** A record schema's issues as row problems: the path is the field. */
export function schemaProblems(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): RowProblem[] {
  return issues.map((i) => ({ field: i.path.map(String).join('.') || ROW, problem: i.message }));
}

/** One dataset's way of reading and building a file: the reader (adapters/) and the builder beside the dataset. */
export interface DatasetFormat<T extends { id: string }> {
  dataset: FileDataset;
  format: string;
  /** Streams the file's rows; throws FileRejectedError for a file that must not load. */
  rows(source: Readable): AsyncIterable<RawRow>;
  /** One row -> a validated record, or every reason it cannot be one. */
  build(row: RawRow): Built<T>;
  /** The problem of a row whose id an earlier line of the file already produced. */
  repeated(record: T, firstLine: number): RowProblem;
  /**
   * Each valid document as it is spooled (a repeated id is not), for a dataset that takes
   * something from the documents while they are in hand; a promise when it must be waited for.
   */
  spooled?(record: T): Promise<void> | undefined;
}

/** What one load did; the job's result (queue.ts IngestResult) carries the counts on. */
export interface LoadOutcome {
  format: string;
  fileSha256: string;
  rowsRead: number;
  /** Documents new to the index. */
  indexed: number;
  /** Documents that replaced one with the same id (re-ingest). */
  updated: number;
  quarantined: number;
  /**
   * Where the time went: pass 1 (read and validate) and pass 2 (from the end of pass 1 to
   * searchable); of pass 2, the send (waiting for the send lane included) and the wait for the
   * shared refresh.
   */
  timingsMs: { validate: number; index: number; send: number; refresh: number };
}

export type LoadProgress = { phase: 'validating' | 'indexing'; rows: number; of?: number };

export interface LoadDeps {
  opensearch: Client;
  prefix: string;
  /** Called every few thousand rows; the worker forwards it as job progress. */
  onProgress?: (progress: LoadProgress) => void;
  /** The worker's two lanes, shared by the files it runs at once; default: lanes of this file alone. */
  lanes?: Lanes;
  /** The worker's refresh group for this dataset; default: a refresh for this file alone. */
  refresh?: RefreshGroup;
  /** Wraps the send in the send lane (dataset-file.ts withinSend). */
  withinSend?: (send: () => Promise<BulkTotals>, refused: () => ReadonlySet<string>) => Promise<BulkTotals>;
}

const PROGRESS_EVERY = 5000;
/**
 * Below V8's large-object size, so each chunk's text is young garbage the scavenger
 * drops for free; 1 MB chunks went to old space and forced a full collection every
 * few dozen megabytes read.
 */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * A file pass 1 read whole: its valid documents in a spool and its refused rows
 * held, both on local disk. Between the passes the caller may set documents aside
 * (a dataset's conflict check); indexFile is pass 2; refusedRows() hands the held
 * rows over once nothing more can be refused; discard() always ends it.
 */
export class ValidatedFile {
  private closed = false;
  /** Documents the engine refused in pass 2: quarantined, never written (the change feed drops their events). */
  refusedIds: ReadonlySet<string> = new Set();

  constructor(
    readonly format: string,
    readonly fileSha256: string,
    readonly rowsRead: number,
    /** When pass 1 began and ended (ms since the epoch). */
    readonly timing: { startedAt: number; validatedAt: number },
    private spool: BulkSpool,
    private readonly held: QuarantineSpool,
    private readonly seen: SeenIds,
    private readonly name: string,
    /** Gives back the file's place among those read ahead of the send (lane.ts FILES_AHEAD). */
    readonly release: () => void = () => undefined,
  ) {}

  /** Documents waiting for pass 2. */
  get valid(): number {
    return this.spool.count;
  }

  /** Rows refused so far. */
  get refused(): number {
    return this.held.count;
  }

  /** The valid documents as spooled, for a check between the passes. */
  docs(): AsyncIterable<SpooledDoc> {
    return this.spool.docs();
  }

  /** Moves these documents (id -> problem) from the spool to the refused rows, each with its line. */
  async setAside(problems: ReadonlyMap<string, RowProblem>): Promise<void> {
    if (problems.size === 0) return;
    const kept = new BulkSpool(`${this.name}-kept`);
    try {
      for await (const doc of this.spool.docs()) {
        const problem = problems.get(doc.id);
        const wait = problem
          ? this.held.add({ line: this.seen.lineOf(doc.id) ?? 0, raw: doc.json, reasons: [problem] })
          : kept.addJson(doc.id, doc.json);
        if (wait) await wait;
      }
      await kept.close();
    } catch (err) {
      await kept.remove();
      throw err;
    }
    await this.spool.remove();
    this.spool = kept;
  }

  /** Pass 2's side: sends the spool, then quarantines what the engine refused. */
  async send(alias: string, deps: LoadDeps): Promise<BulkTotals> {
    const totals = await send(this.spool, alias, deps);
    this.refusedIds = new Set(totals.failures.map((f) => f.id));
    if (totals.failures.length > 0) await quarantineRefused(this.spool, this.held, totals.failures, this.seen);
    // Files waiting for their refresh hold neither the id table nor the spool.
    this.seen.clear();
    await this.spool.remove();
    return totals;
  }

  /** The refused rows, each with its line, raw text and problems; nothing can be refused after this. */
  async *refusedRows(): AsyncIterable<HeldRow> {
    if (!this.closed) {
      this.closed = true;
      await this.held.close();
    }
    yield* this.held.rows();
  }

  /** Removes the spools from disk. */
  async discard(): Promise<void> {
    this.release();
    this.seen.clear();
    await this.spool.remove();
    await this.held.remove();
  }
}

export type SpooledDoc = { id: string; json: string };

/**
 * Pass 1: every row of the file into the spools, hashing the bytes as they are
 * read. Throws FileRejectedError for a file that must not load, leaving nothing behind.
 */
export async function validateFile<T extends { id: string }>(
  file: string,
  jobId: string,
  format: DatasetFormat<T>,
  deps: LoadDeps,
): Promise<ValidatedFile> {
  const size = await stat(file).then(
    (s) => s.size,
    (err: NodeJS.ErrnoException) => {
      throw new FileRejectedError('unreadable_file', `cannot read ${file}: ${err.code ?? err.message}`);
    },
  );
  if (size === 0) throw new FileRejectedError('empty_file', `${file} is empty`);

  const startedAt = Date.now();
  const name = `${format.dataset}-${jobId.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const spool = new BulkSpool(name);
  const held = new QuarantineSpool(`${name}-quarantine`);
  const lanes = deps.lanes ?? createLanes();
  // Nothing of the file is read until it is among the few allowed ahead of the send.
  const release = await lanes.ahead.acquire();
  try {
    // Pass 1 opens the file only when its turn comes, so files queued behind it hold no read buffers.
    const { rowsRead, fileSha256, seen } = await lanes.validate.run(() => validate(file, format, spool, held, deps));
    if (rowsRead === 0) throw new FileRejectedError('empty_file', `${file} has no ${format.dataset} rows`);
    return new ValidatedFile(format.format, fileSha256, rowsRead, { startedAt, validatedAt: Date.now() }, spool, held, seen, name, release);
  } catch (err) {
    release();
    await spool.remove();
    await held.remove();
    // A damaged or truncated gzip cannot load on any retry: rejected like an unreadable file.
    if (isZlibError(err)) throw new FileRejectedError('unreadable_file', `${file} is not a readable gzip file (${err.code})`);
    throw err;
  }
}

/** zlib's errors carry a Z_* code (Z_DATA_ERROR, Z_BUF_ERROR). */
function isZlibError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === 'string' &&
    /^Z_[A-Z_]+$/.test((err as NodeJS.ErrnoException).code!)
  );
}

/**
 * Pass 2: the validated documents to the index, batch by batch as pass 1 cut them;
 * a document the engine refuses joins the refused rows. Searchable when this returns.
 */
export async function indexFile(validated: ValidatedFile, dataset: FileDataset, deps: LoadDeps): Promise<LoadOutcome> {
  const lanes = deps.lanes ?? createLanes();
  const alias = aliasName(deps.prefix, dataset);
  const sendStarted = Date.now();
  const send = () => validated.send(alias, deps);
  const totals = await lanes.send
    .run(() => (deps.withinSend ? deps.withinSend(send, () => validated.refusedIds) : send()))
    .finally(validated.release);
  const sent = Date.now();
  // Searchable before the job completes: one refresh, shared with the files that finish near this one.
  await (deps.refresh ?? new RefreshGroup(deps.opensearch, alias)).request(lanesIdle(lanes));
  const { startedAt, validatedAt } = validated.timing;
  const now = Date.now();
  return {
    format: validated.format,
    fileSha256: validated.fileSha256,
    rowsRead: validated.rowsRead,
    indexed: totals.created,
    updated: totals.updated,
    quarantined: validated.refused,
    timingsMs: { validate: validatedAt - startedAt, index: now - validatedAt, send: sent - sendStarted, refresh: now - sent },
  };
}

/**
 * Pass 1: every row of the file into the spools, hashing the bytes as they are
 * read. Returns the ids seen, which name the line of any document refused later.
 */
async function validate<T extends { id: string }>(
  file: string,
  format: DatasetFormat<T>,
  spool: BulkSpool,
  held: QuarantineSpool,
  deps: Pick<LoadDeps, 'onProgress'>,
): Promise<{ rowsRead: number; fileSha256: string; seen: SeenIds }> {
  const hash = createHash('sha256');
  const source = hashedFile(file, hash);
  const seen = new SeenIds();
  let rowsRead = 0;
  try {
    for await (const row of format.rows(source)) {
      rowsRead++;
      const built = format.build(row);
      // add() returns a promise only when the disk is behind; awaiting only then saves a tick per row.
      let wait: Promise<void> | undefined;
      if (!built.ok) wait = held.add({ line: row.line, raw: row.raw, reasons: built.reasons });
      else {
        const firstLine = seen.add(built.record.id, row.line);
        if (firstLine === undefined) {
          wait = spool.add(built.record.id, built.record);
          const observed = format.spooled?.(built.record);
          if (observed) await observed;
        } else wait = held.add({ line: row.line, raw: row.raw, reasons: [format.repeated(built.record, firstLine)] });
      }
      if (wait) await wait;
      if (rowsRead % PROGRESS_EVERY === 0) deps.onProgress?.({ phase: 'validating', rows: rowsRead });
    }
  } finally {
    // Abandoning the read mid-file (a rejected file) must not surface as an uncaught stream error.
    source.on('error', () => undefined);
    source.destroy();
  }
  await spool.close();
  return { rowsRead, fileSha256: hash.digest('hex'), seen };
}

/** Pass 2: the file proved sound; the spool goes to the index batch by batch, as pass 1 cut it. */
async function send(spool: BulkSpool, alias: string, deps: LoadDeps): Promise<BulkTotals> {
  const writer = createBulkWriter(deps.opensearch, { index: alias });
  let sent = 0;
  for await (const batch of spool.batches()) {
    await writer.addBatch(batch);
    sent += batch.docs;
    deps.onProgress?.({ phase: 'indexing', rows: sent, of: spool.count });
  }
  return writer.flush();
}

/** A document OpenSearch refused is quarantined with its line and reason, never dropped. */
async function quarantineRefused(spool: BulkSpool, held: QuarantineSpool, failures: BulkFailure[], seen: SeenIds) {
  const refused = new Map(failures.map((f) => [f.id, f]));
  for await (const doc of spool.docs()) {
    const failure = refused.get(doc.id);
    if (failure)
      await held.add({
        line: seen.lineOf(doc.id) ?? 0,
        raw: doc.json,
        reasons: [{ field: INDEX, problem: `${failure.type}: ${failure.reason}` }],
      });
  }
}

/** A file whose name ends in .gz is gzipped: it is read through gunzip. */
export const GZIP_SUFFIX = '.gz';

/** The file's bytes, hashed as the parser pulls them (and gunzipped when the name says so). */
function hashedFile(file: string, hash: Hash): Readable {
  // A transform, not a 'data' listener: a listener would switch the stream to flowing mode
  // and read the file as fast as the disk allows, whatever the parser keeps up with.
  const hashed = new Transform({
    highWaterMark: READ_CHUNK_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const source = createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  source.on('error', (err) => hashed.destroy(err));
  hashed.on('close', () => source.destroy());
  const bytes = source.pipe(hashed);
  if (!file.endsWith(GZIP_SUFFIX)) return bytes;
  // A gzipped file (the shipped demo set) is read as its text; the hash stays the file's own bytes.
  const text = createGunzip({ chunkSize: READ_CHUNK_BYTES });
  bytes.on('error', (err) => text.destroy(err));
  text.on('close', () => bytes.destroy());
  return bytes.pipe(text);
}
