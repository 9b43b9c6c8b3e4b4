import type { Sql } from '../services/control/db/sql.ts';
import type { Client } from '@opensearch-project/opensearch';
import type { HolderMemory } from './holder-memory.ts';
import type { HolderAliases } from '../services/domain/holder-groups.ts';
import type { Registry } from '../services/domain/registry.ts';
import type { RowProblem } from './adapters/types.ts';
import type { DatasetFormat, SpooledDoc } from './load/two-pass-load.ts';
import type { IngestJob } from './queue.ts';
import type { BulkTotals } from './load/bulk.ts';
import type { HeldRollups } from './rollups/held.ts';
import type { RollupLedger } from './rollups/ledger.ts';

/**
 * What each dataset gives the one ingest job (process-file.ts): how to read and
 * build its file, what must not replace the index's documents, and its bookkeeping
 * once the file is searchable. Each dataset's
 * own file (certificates/certificate-file.ts, holders/holder-file.ts,
 * lands-available/lands-file.ts) makes one.
 */
export interface DatasetFile<T extends { id: string } = { id: string }> {
  format: DatasetFormat<T>;
  /**
   * Between the passes: valid documents that must not replace what the index holds
   * (id -> problem); they are quarantined instead of sent. Certificates: a changed parcel;
   * the same read of the index stages the change feed's events (certificates/certificate-feed.ts).
   */
  conflicts?(docs: AsyncIterable<SpooledDoc>, fileSha256: string): Promise<ReadonlyMap<string, RowProblem>>;
  /**
   * The change feed, once pass 2 is searchable: what the file changed, staged
   * between the passes, recorded in one transaction. `refused`: documents the engine refused.
   */
  publishChanges?(refused: ReadonlySet<string>): Promise<void>;
  /**
   * Of the documents the file replaced, how many it changed in what the API shows (the change
   * feed's comparison): the engine answers "updated" for every replaced document, changed or
   * not, and every document carries a new ingest time. Null or absent: not known.
   */
  changedCount?(): number | null;
  /** Phases of the dataset's own steps, in ms, added to the job's logged timings (certificates: the saved searches'). */
  timingsMs?(): Record<string, number>;
  /**
   * Pass 2's send, in the send lane: a dataset that writes more beside its documents (certificates:
   * their rollups) wraps it, so a refresh never runs between the two. `refused`: after send.
   */
  withinSend?(send: () => Promise<BulkTotals>, refused: () => ReadonlySet<string>): Promise<BulkTotals>;
  /** After the file is searchable and its refused rows quarantined. */
  bookkeep(): Promise<void>;
}

export interface DatasetFileDeps {
  opensearch: Client;
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  registry: Registry;
  prefix: string;
  parcelBaseUrl: string;
  /** The holder alias file, loaded once by the worker; a one-off caller may leave it out and each job reads it. */
  holderAliases?: HolderAliases;
  /** The holder memories, built once by the worker from holderAliases (createHolderMemory); left out, each job builds its own. */
  holderMemory?: HolderMemory;
  /**
   * Refreshes the certificates index where the worker allows it: between two sends, so a refresh
   * never shows a certificate file half sent or without its rollups (load/lane.ts). Default: at once.
   */
  refreshCertificates?: () => Promise<unknown>;
  /** The worker's record of its rollup commits (rollups/ledger.ts); left out, every load's rollups stand alone. */
  rollupLedger?: RollupLedger;
  /** The worker's rollups held for its next refresh (rollups/held.ts); left out, each file's are written at once. */
  heldRollups?: HeldRollups;
  /** The clock (tests set it): the time stamped on records, and the day a sale's status is judged on. */
  now?: () => Date;
}

/** Throws FileRejectedError when the job cannot name a loadable file (unknown county, no format). */
export type OpenDatasetFile = (job: IngestJob, deps: DatasetFileDeps, at: string) => DatasetFile;
