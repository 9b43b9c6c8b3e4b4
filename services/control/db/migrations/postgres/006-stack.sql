-- PostgreSQL twin of ../006-stack.sql: the one stack (INDEX_PREFIX) this database belongs to.
-- id is always 1 (given by the insert), so it is a plain key, not an identity.
CREATE TABLE stack (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  index_prefix TEXT COLLATE "C" NOT NULL,
  claimed_at TEXT COLLATE "C" NOT NULL DEFAULT now_iso()
);
