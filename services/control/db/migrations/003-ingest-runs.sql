-- One row per ingest job (one file). A retried job reuses its row, keyed by job_id,
-- so the table shows the latest attempt and how many there were.
CREATE TABLE ingest_runs (
  id INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL UNIQUE,
  dataset TEXT NOT NULL CHECK (dataset IN ('certificates', 'sales', 'holders', 'lands_available')),
  -- No foreign key: a run for a file naming an unknown county must still be recorded as failed.
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

CREATE INDEX ingest_runs_started_at ON ingest_runs (started_at DESC);
