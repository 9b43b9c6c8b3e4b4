import type { Database } from 'better-sqlite3';
import { isoTimestamp } from './counties.ts';
import type { ControlDataset } from '../domain/datasets.ts';

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
export function markIngested(db: Database, dataset: ControlDataset, at: Date | string = new Date()): void {
  db.prepare(`
    INSERT INTO dataset_state (dataset, last_ingested_at) VALUES (@dataset, @at)
    ON CONFLICT (dataset) DO UPDATE SET
      last_ingested_at = max(coalesce(last_ingested_at, ''), excluded.last_ingested_at),
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`).run({ dataset, at: isoTimestamp(at) });
}

export function getDatasetState(db: Database, dataset: ControlDataset): DatasetState {
  const row = db
    .prepare<[string], { last_ingested_at: string | null; last_source_success_at: string | null }>(`
      SELECT
        (SELECT last_ingested_at FROM dataset_state WHERE dataset = ?) AS last_ingested_at,
        (SELECT max(last_success_at) FROM sources) AS last_source_success_at`)
    .get(dataset)!;
  return { dataset, lastIngestedAt: row.last_ingested_at, lastSourceSuccessAt: row.last_source_success_at };
}
