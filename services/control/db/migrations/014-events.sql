-- The change feed (issue 20): one row per change the API shows, appended when the change
-- becomes visible. AUTOINCREMENT, not the plain rowid: ids must never be reused after the
-- oldest rows are pruned, because a client's stored cursor is an id ("evt_<id>").
-- data holds {"object": <the row as the API renders it>, "previous": {<field>: <old value>}}.
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  county_slug TEXT,
  data TEXT NOT NULL
) STRICT;

-- The feed filters by type and county and walks by id; pruning walks by time.
CREATE INDEX events_type_id ON events (type, id);
CREATE INDEX events_county_id ON events (county_slug, id);
CREATE INDEX events_created_at ON events (created_at);
