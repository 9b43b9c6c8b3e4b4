-- PostgreSQL twin of ../005-dataset-state.sql: per-dataset bookkeeping for freshness.
CREATE TABLE dataset_state (
  dataset TEXT COLLATE "C" PRIMARY KEY CHECK (dataset IN ('certificates', 'sales', 'holders', 'lands_available')),
  last_ingested_at TEXT COLLATE "C",
  updated_at TEXT COLLATE "C" NOT NULL DEFAULT now_iso()
);

INSERT INTO dataset_state (dataset) VALUES ('certificates'), ('sales'), ('holders'), ('lands_available');
