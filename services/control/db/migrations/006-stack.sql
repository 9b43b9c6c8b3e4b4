-- The stack (INDEX_PREFIX) this database belongs to (issue 12, item 1): two stacks writing one
-- database mixed their counties' counts. One row, claimed by the first stack that opens it.
CREATE TABLE stack (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  index_prefix TEXT NOT NULL,
  claimed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
