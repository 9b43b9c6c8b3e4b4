-- PostgreSQL twin of ../007-quarantine-per-run.sql: quarantined rows are unique per run, not
-- per file. SQLite rebuilds the table to change its UNIQUE; here the constraint is swapped in
-- place, ending in the same schema: UNIQUE (run_id, file_sha256, line), indexes on file_path
-- and (file_sha256, line), and no separate run_id index (the rebuild dropped it, the new
-- unique key leads with run_id).
ALTER TABLE quarantine DROP CONSTRAINT quarantine_file_sha256_line_key;
ALTER TABLE quarantine ADD CONSTRAINT quarantine_run_id_file_sha256_line_key UNIQUE (run_id, file_sha256, line);
DROP INDEX quarantine_run_id;

CREATE INDEX quarantine_file_sha256 ON quarantine (file_sha256, line);
