-- Per-dataset bookkeeping for freshness (spec 2.8); counts come from OpenSearch.
CREATE TABLE dataset_state (
  dataset TEXT PRIMARY KEY CHECK (dataset IN ('certificates', 'sales', 'holders', 'lands_available')),
  last_ingested_at TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

INSERT INTO dataset_state (dataset) VALUES ('certificates'), ('sales'), ('holders'), ('lands_available');
