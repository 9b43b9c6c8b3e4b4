-- PostgreSQL twin of ../022-key-names-and-suspensions.sql: key names and last use, and why a
-- client was suspended or closed.
ALTER TABLE api_keys ADD COLUMN name TEXT COLLATE "C";
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT COLLATE "C";

ALTER TABLE clients ADD COLUMN status_reason TEXT COLLATE "C";
