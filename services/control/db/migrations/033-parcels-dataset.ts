import { defineMigration } from '../define-migration.ts';

// The parcel layer adds a dataset loaded from files, 'parcels': its ingest runs and its freshness
// row must pass the dataset CHECK of ingest_runs and dataset_state. PostgreSQL replaces the two
// constraints; SQLite cannot alter a CHECK, so each table is rebuilt with its rows (no table
// references either, and ingest_runs keeps its index).
const DATASETS = "('certificates', 'sales', 'holders', 'lands_available', 'parcels')";

export default defineMigration(({ engine }) =>
  engine === 'postgres'
    ? `ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_dataset_check;
ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_dataset_check CHECK (dataset IN ${DATASETS});
ALTER TABLE dataset_state DROP CONSTRAINT dataset_state_dataset_check;
ALTER TABLE dataset_state ADD CONSTRAINT dataset_state_dataset_check CHECK (dataset IN ${DATASETS});
INSERT INTO dataset_state (dataset) VALUES ('parcels');
`
    : `CREATE TABLE ingest_runs_parcels (
  id INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL UNIQUE,
  dataset TEXT NOT NULL CHECK (dataset IN ${DATASETS}),
  county_slug TEXT,
  tax_year INTEGER,
  vendor TEXT,
  file_path TEXT NOT NULL,
  file_sha256 TEXT,
  status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
  rows_read INTEGER NOT NULL DEFAULT 0,
  rows_indexed INTEGER NOT NULL DEFAULT 0,
  rows_updated INTEGER NOT NULL DEFAULT 0,
  rows_quarantined INTEGER NOT NULL DEFAULT 0,
  error_code TEXT,
  error_message TEXT,
  started_at TEXT NOT NULL,
  finished_at TEXT
) STRICT;
INSERT INTO ingest_runs_parcels SELECT id, job_id, dataset, county_slug, tax_year, vendor, file_path, file_sha256, status, attempts,
  rows_read, rows_indexed, rows_updated, rows_quarantined, error_code, error_message, started_at, finished_at FROM ingest_runs;
DROP TABLE ingest_runs;
ALTER TABLE ingest_runs_parcels RENAME TO ingest_runs;
CREATE INDEX ingest_runs_started_at ON ingest_runs (started_at DESC);

CREATE TABLE dataset_state_parcels (
  dataset TEXT PRIMARY KEY CHECK (dataset IN ${DATASETS}),
  last_ingested_at TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
INSERT INTO dataset_state_parcels SELECT dataset, last_ingested_at, updated_at FROM dataset_state;
DROP TABLE dataset_state;
ALTER TABLE dataset_state_parcels RENAME TO dataset_state;
INSERT INTO dataset_state (dataset) VALUES ('parcels');
`,
);
