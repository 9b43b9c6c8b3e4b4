-- PostgreSQL twin of ../005-dataset-state.sql: per-dataset bookkeeping for freshness.
CREATE TABLE dataset_state (
  dataset TEXT PRIMARY KEY CHECK (dataset IN ('certificates', 'sales', 'holders', 'lands_available')),
  last_ingested_at TEXT,
  updated_at TEXT NOT NULL DEFAULT now_iso()
);

INSERT INTO dataset_state (dataset) VALUES ('certificates'), ('sales'), ('holders'), ('lands_available');
