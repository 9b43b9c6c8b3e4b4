import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import type { Client } from '@opensearch-project/opensearch';
import type { RawRow } from './adapters/types.ts';
import { createBulkWriter } from './bulk.ts';
import { FileRejectedError } from './errors.ts';
import { aliasName } from './indices/names.ts';
import { createLanes, type Lanes } from './lane.ts';
import { RefreshGroup } from './refresh-group.ts';
import { SeenIds } from './seen-ids.ts';
import { SharedBulkMode } from './shared-bulk-mode.ts';
import { readSpool, SpoolWriter } from './spool.ts';

/**
 * How every dataset file is loaded. A file is read twice: pass 1 validates every
 * row into a spool on local disk (quarantined rows wait on disk too), pass 2
 * bulk-loads the spool only once the whole file proved sound, and quarantined
 * rows reach the caller only then. A FileRejectedError anywhere in pass 1 (empty,
 * not this format, cut off, another county's) leaves the index and the quarantine
 * untouched, in memory that does not grow with the file.
 */

export interface QuarantinedRow {
  line: number;
  raw: string;
  reasons: string[];
}

export type DatasetBuilt<T> = { ok: true; record: T } | { ok: false; reasons: string[] };

export interface DatasetFormat<T extends { id: string }> {
  dataset: 'certificates' | 'holders' | 'lands-available';
  format: string;
  /** Streams the file's rows; throws FileRejectedError for a file that must not load. */
  rows(source: Readable): AsyncIterable<RawRow>;
  /** One row -> a validated record, or every reason it cannot be one. */
  build(row: RawRow): DatasetBuilt<T>;
  /** The reason given to a row whose id an earlier line of the file already produced. */
  repeated(record: T, firstLine: number): string;
}

export interface DatasetFileOutcome {
  format: string;
  fileSha256: string;
  rowsRead: number;
  /** Documents new to the index. */
  indexed: number;
  /** Documents that replaced one with the same id (re-ingest). */
  updated: number;
  quarantined: number;
  /** Where the time went: pass 1 (read and validate) and pass 2 (bulk and refresh). */
  timingsMs: { validate: number; index: number };
}

export interface LoadDeps {
  opensearch: Client;
  prefix: string;
  replicas: number;
  /** Called every few thousand rows; the worker forwards it as job progress. */
  onProgress?: (progress: { phase: 'validating' | 'indexing'; rows: number; of?: number }) => void;
  /** Refresh off while the worker loads, shared by the files it runs at once; default: this file alone. */
  bulkMode?: SharedBulkMode;
  /** The worker's two lanes, shared by the files it runs at once; default: lanes of this file alone. */
  lanes?: Lanes;
  /** The worker's refresh group for this dataset; default: a refresh for this file alone. */
  refresh?: RefreshGroup;
}

const PROGRESS_EVERY = 5000;

export async function loadTwoPass<T extends { id: string }>(
  file: string,
  jobId: string,
  format: DatasetFormat<T>,
  deps: LoadDeps,
  onQuarantine: (rows: QuarantinedRow[], fileSha256: string) => void,
): Promise<DatasetFileOutcome> {
  const size = await stat(file).then(
    (s) => s.size,
    (err: NodeJS.ErrnoException) => {
      throw new FileRejectedError('unreadable_file', `cannot read ${file}: ${err.code ?? err.message}`);
    },
  );
  if (size === 0) throw new FileRejectedError('empty_file', `${file} is empty`);

  const startedAt = Date.now();
  // Pass 1: validate everything into the spool while hashing the bytes read.
  const hash = createHash('sha256');
  // A transform, not a 'data' listener: a listener would switch the stream to flowing mode
  // and read the file as fast as the disk allows, whatever the parser keeps up with.
  const hashed = new Transform({
    highWaterMark: 1 << 20,
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  source.on('error', (err) => hashed.destroy(err));
  source.pipe(hashed);

  const spoolName = `${format.dataset}-${jobId.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const spool = new SpoolWriter(spoolName);
  const held = new SpoolWriter(`${spoolName}-quarantine`);
  const seen = new SeenIds();
  let rowsRead = 0;
  try {
    const lanes = deps.lanes ?? createLanes();
    await lanes.validate.run(async () => {
      for await (const row of format.rows(hashed)) {
        rowsRead++;
        const built = format.build(row);
        // write() returns a promise only when the disk is behind; awaiting only then saves a tick per row.
        let wait: Promise<void> | undefined;
        if (!built.ok) wait = held.write(row.line, '', { raw: row.raw, reasons: built.reasons });
        else {
          const firstLine = seen.add(built.record.id, row.line);
          wait =
            firstLine === undefined
              ? spool.write(row.line, built.record.id, built.record)
              : held.write(row.line, '', { raw: row.raw, reasons: [format.repeated(built.record, firstLine)] });
        }
        if (wait) await wait;
        if (rowsRead % PROGRESS_EVERY === 0) deps.onProgress?.({ phase: 'validating', rows: rowsRead });
      }
      await spool.close();
    });
    if (rowsRead === 0) throw new FileRejectedError('empty_file', `${file} has no ${format.dataset} rows`);
    const fileSha256 = hash.digest('hex');
    const validatedAt = Date.now();

    // Pass 2: the file is sound; send the spool. The refresh group refreshes after it
    // (shared with files queued behind it), so everything indexed is searchable below.
    const alias = aliasName(deps.prefix, format.dataset);
    const writer = createBulkWriter(deps.opensearch, { index: alias });
    const bulkMode =
      deps.bulkMode ?? new SharedBulkMode(deps.opensearch, { index: alias, dataset: format.dataset, replicas: deps.replicas });
    const refresh = deps.refresh ?? new RefreshGroup(deps.opensearch, alias);
    const { totals, refreshed } = await lanes.send.run(() =>
      bulkMode.run(async () => {
        try {
          let sent = 0;
          for await (const entry of readSpool(spool.path)) {
            await writer.add(entry.id, entry.json);
            if (++sent % PROGRESS_EVERY === 0) deps.onProgress?.({ phase: 'indexing', rows: sent, of: spool.count });
          }
          const totals = await writer.flush();
          return { totals, refreshed: refresh.request(lanes.send.waiting > 0) };
        } finally {
          // The last file in line refreshes for any that wait, also when this one failed.
          if (lanes.send.waiting === 0) void refresh.flush();
        }
      }),
    );
    await refreshed;

    if (totals.failures.length > 0) {
      // A document OpenSearch refused is quarantined with its reason, never dropped.
      const refused = new Map(totals.failures.map((f) => [f.id, f]));
      for await (const entry of readSpool(spool.path)) {
        const failure = refused.get(entry.id);
        if (failure) await held.write(entry.line, '', { raw: entry.json, reasons: [`index: ${failure.type}: ${failure.reason}`] });
      }
    }
    await held.close();
    let batch: QuarantinedRow[] = [];
    for await (const entry of readSpool(held.path)) {
      batch.push({ line: entry.line, ...(JSON.parse(entry.json) as { raw: string; reasons: string[] }) });
      if (batch.length === 500) {
        onQuarantine(batch, fileSha256);
        batch = [];
      }
    }
    if (batch.length > 0) onQuarantine(batch, fileSha256);
    return {
      format: format.format,
      fileSha256,
      rowsRead,
      indexed: totals.created,
      updated: totals.updated,
      quarantined: held.count,
      timingsMs: { validate: validatedAt - startedAt, index: Date.now() - validatedAt },
    };
  } finally {
    // Abandoning the read mid-file (a rejected file) must not surface as an uncaught stream error.
    hashed.on('error', () => undefined);
    source.destroy();
    hashed.destroy();
    await spool.remove();
    await held.remove();
  }
}
