-- Quarantined rows stay with the run that refused them (issue 12, item 3). Unique on
-- (file_sha256, line), a later run of the same file took over or replaced an earlier run's rows,
-- and `quarantine list --run` of the earlier run showed none. Now unique per run: a retried job
-- (same run id) still replaces its own rows instead of adding copies. Rows go only when an
-- operator clears them (taxcert quarantine clear).
CREATE TABLE quarantine_per_run (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  file_path TEXT NOT NULL,
  file_sha256 TEXT NOT NULL,
  line INTEGER NOT NULL CHECK (line >= 0),
  raw TEXT NOT NULL,
  reasons TEXT NOT NULL CHECK (json_valid(reasons) AND json_type(reasons) = 'array'),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (run_id, file_sha256, line)
) STRICT;

INSERT INTO quarantine_per_run (id, run_id, file_path, file_sha256, line, raw, reasons, created_at)
  SELECT id, run_id, file_path, file_sha256, line, raw, reasons, created_at FROM quarantine;
DROP TABLE quarantine;
ALTER TABLE quarantine_per_run RENAME TO quarantine;

CREATE INDEX quarantine_file_path ON quarantine (file_path);
CREATE INDEX quarantine_file_sha256 ON quarantine (file_sha256, line);
