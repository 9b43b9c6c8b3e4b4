-- PostgreSQL twin of ../022-key-names-and-suspensions.sql: key names and last use, and why a
-- client was suspended or closed.
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;

ALTER TABLE clients ADD COLUMN status_reason TEXT;
