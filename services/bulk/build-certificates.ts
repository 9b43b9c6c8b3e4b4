import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config.ts';
import { settledEventSeq, publicEventId } from '../control/feed/events.ts';
import type { Sql } from '../control/db/sql.ts';
import { CERTIFICATE_COLUMNS } from '../domain/certificate-row.ts';
import { CERTIFICATE_PARQUET } from './certificate-columns.ts';
import { certificatePages, scopesOf } from './certificate-pages.ts';
import { type DuckDb, openDuckDb } from './duckdb.ts';
import type { BulkFile } from './entry.ts';
import { BUILD_WIDTH, sideBySide } from './side-by-side.ts';
import type { BulkStorage } from './storage.ts';
import type { BulkDataset } from './names.ts';
import { type FileSet, writeFileSet } from './write-files.ts';

export interface BulkDeps {
  opensearch: Client;
  sql: Sql;
  config: Pick<Config, 'INDEX_PREFIX' | 'PARCEL_BASE_URL'>;
  storage: BulkStorage;
  now?: () => Date;
  /** Rows a page of the walk reads (tests make it small to cross page boundaries). */
  pageRows?: number;
  /** Told each file set's timings (write-files.ts). */
  onTimings?: (t: { textMs: number; parquetMs: number }) => void;
  /** The build's DuckDB (one for all its file sets); a single file set opens its own when absent. */
  duckdb?: DuckDb;
}

/** The newest event the next read is consistent with, as its public id (null before the first event). */
export async function currentThroughEvent(sql: Sql): Promise<string | null> {
  const seq = await settledEventSeq(sql);
  return seq ? publicEventId(seq) : null;
}

/**
 * A snapshot's file set in all three formats. The event id is read before the rows: an ingest
 * that lands during the walk may already show in the rows, and replaying its events (upserts by
 * id) over the snapshot gives the same data, so the snapshot is consistent with every event up
 * to that id and never misses one after it. `pages` is handed the build's time (a sale's status
 * is as of its Florida day).
 */
export async function writeSnapshot(
  deps: BulkDeps,
  target: Pick<FileSet, 'columns' | 'parquet' | 'onTimings'> & { dataset: BulkDataset; county: string | null; taxYear: number | null },
  pages: (now: Date) => AsyncIterable<Record<string, unknown>[]>,
): Promise<BulkFile[]> {
  const throughEvent = await currentThroughEvent(deps.sql);
  const now = deps.now?.() ?? new Date();
  const { dataset, county, taxYear, columns, parquet, onTimings } = target;
  return writeFileSet(
    deps.storage,
    {
      key: { dataset, kind: 'snapshot', county, taxYear, day: null },
      columns,
      parquet,
      formats: ['parquet', 'ndjson', 'csv'],
      throughEvent,
      now,
      onTimings,
      duckdb: deps.duckdb,
    },
    pages(now),
  );
}

/** The certificates snapshot of one county and tax year. */
export function buildCertificateSnapshot(deps: BulkDeps, scope: { county: string; taxYear: number }): Promise<BulkFile[]> {
  return writeSnapshot(
    deps,
    { dataset: 'certificates', ...scope, columns: CERTIFICATE_COLUMNS, parquet: CERTIFICATE_PARQUET, onTimings: deps.onTimings },
    () => certificatePages(deps.opensearch, deps.config.INDEX_PREFIX, deps.config.PARCEL_BASE_URL, scope, deps.pageRows),
  );
}

/**
 * Every county and tax year's certificates snapshot, or those of one county and/or one tax year:
 * two file sets at a time (side-by-side.ts), all converted by one DuckDB instance.
 */
export async function buildCertificateSnapshots(
  deps: BulkDeps,
  only: { county?: string; taxYear?: number } = {},
  onBuilt: (files: BulkFile[]) => void = () => undefined,
): Promise<BulkFile[]> {
  const scopes = await scopesOf(deps.opensearch, deps.config.INDEX_PREFIX, 'certificates', only);
  return withBuildDuckDb(deps, async (shared) =>
    (
      await sideBySide(scopes, BUILD_WIDTH, async (scope) => {
        const files = await buildCertificateSnapshot(shared, scope);
        onBuilt(files);
        return files;
      })
    ).flat(),
  );
}

/** Runs a build of many file sets with one DuckDB instance, opened once and closed after (unless the caller gave one). */
export async function withBuildDuckDb<T>(deps: BulkDeps, run: (deps: BulkDeps) => Promise<T>): Promise<T> {
  if (deps.duckdb) return run(deps);
  const duckdb = await openDuckDb();
  try {
    return await run({ ...deps, duckdb });
  } finally {
    duckdb.close();
  }
}
