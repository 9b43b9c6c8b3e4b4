-- Rows an ingest refused, with the raw text and why. Unique on (file, line) so a
-- retried file replaces its earlier quarantine rows instead of adding copies.
CREATE TABLE quarantine (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  file_path TEXT NOT NULL,
  file_sha256 TEXT NOT NULL,
  line INTEGER NOT NULL CHECK (line >= 0),
  raw TEXT NOT NULL,
  reasons TEXT NOT NULL CHECK (json_valid(reasons) AND json_type(reasons) = 'array'),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (file_sha256, line)
) STRICT;

CREATE INDEX quarantine_run_id ON quarantine (run_id);
CREATE INDEX quarantine_file_path ON quarantine (file_path);
