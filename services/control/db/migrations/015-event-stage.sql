-- The change feed's stage (issue 20). An ingest job computes the events of its file between
-- its two passes, before pass 2 writes anything, and stages them here; once its documents are
-- searchable it moves them into events in one transaction (ids are given then, in the order
-- changes became visible) and clears its stage. A job retried after a crash finds its stage
-- and publishes it instead of comparing the file with a half-written index.

-- One row per job that has something to publish. complete = 0 while staging: a stage cut off
-- by a crash is thrown away and recomputed (nothing was written to the index yet).
CREATE TABLE event_stage_runs (
  job_id TEXT PRIMARY KEY,
  file_sha256 TEXT NOT NULL,
  county_slug TEXT NOT NULL,
  tax_year INTEGER NOT NULL,
  complete INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- The staged events, in the order they will get their ids. doc_id names the certificate an
-- event is about, so one the engine refuses in pass 2 (never written) is dropped unpublished.
CREATE TABLE event_stage (
  id INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL REFERENCES event_stage_runs (job_id) ON DELETE CASCADE,
  doc_id TEXT,
  type TEXT NOT NULL,
  county_slug TEXT,
  data TEXT NOT NULL
) STRICT;

CREATE INDEX event_stage_job ON event_stage (job_id, id);
CREATE INDEX event_stage_job_doc ON event_stage (job_id, doc_id);
CREATE INDEX event_stage_runs_created_at ON event_stage_runs (created_at);
