import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../services/control/db.ts';
import type { HolderAliases } from '../services/domain/holder-groups.ts';
import type { Registry } from '../services/domain/registry.ts';
import type { RowProblem } from './adapters/types.ts';
import type { DatasetFormat, SpooledDoc } from './load/two-pass-load.ts';
import type { IngestJob } from './queue.ts';

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
   * (id -> problem); they are quarantined instead of sent. Certificates: a changed parcel.
   */
  conflicts?(docs: AsyncIterable<SpooledDoc>): Promise<ReadonlyMap<string, RowProblem>>;
  /** After the file is searchable and its refused rows quarantined. */
  bookkeep(): Promise<void>;
}

export interface DatasetFileDeps {
  opensearch: Client;
  db: Database;
  registry: Registry;
  prefix: string;
  parcelBaseUrl: string;
  /** The holder alias file, loaded once by the worker; a one-off caller may leave it out and each job reads it. */
  holderAliases?: HolderAliases;
}

/** Throws FileRejectedError when the job cannot name a loadable file (unknown county, no format). */
export type OpenDatasetFile = (job: IngestJob, deps: DatasetFileDeps, at: string) => DatasetFile;
