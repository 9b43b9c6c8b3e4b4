import { isoTimestamp } from '../db/time.ts';
import type { Sql } from '../db/sql.ts';
import type { ControlDataset } from '../../domain/datasets.ts';

/**
 * What SQLite knows for the freshness object (spec 2.8). certificate_count and
 * latest_tax_year come from OpenSearch; the route merges the two.
 */

export interface DatasetState {
  dataset: ControlDataset;
  lastIngestedAt: string | null;
  /** Latest successful check of any source. */
  lastSourceSuccessAt: string | null;
}

/**
 * Records that a dataset received data at `at`. Keeps the later of the stored and
 * given times, so a slow job finishing after a newer one cannot move freshness back.
 */
export async function markIngested(sql: Sql, dataset: ControlDataset, at: Date | string = new Date()): Promise<void> {
  // CASE, not scalar max(): SQLite has no GREATEST and PostgreSQL no two-argument max. ISO texts
  // of one form compare in time order.
  await sql.run(
    `
    INSERT INTO dataset_state (dataset, last_ingested_at) VALUES (@dataset, @at)
    ON CONFLICT (dataset) DO UPDATE SET
      last_ingested_at = CASE
        WHEN dataset_state.last_ingested_at IS NULL OR dataset_state.last_ingested_at < excluded.last_ingested_at THEN excluded.last_ingested_at
        ELSE dataset_state.last_ingested_at END,
      updated_at = now_iso()`,
    { dataset, at: isoTimestamp(at) },
  );
}

export async function getDatasetState(sql: Sql, dataset: ControlDataset): Promise<DatasetState> {
  const row = (await sql.get<{ last_ingested_at: string | null; last_source_success_at: string | null }>(
    `
      SELECT
        (SELECT last_ingested_at FROM dataset_state WHERE dataset = ?) AS last_ingested_at,
        (SELECT max(last_success_at) FROM sources) AS last_source_success_at`,
    [dataset],
  ))!;
  return { dataset, lastIngestedAt: row.last_ingested_at, lastSourceSuccessAt: row.last_source_success_at };
}
