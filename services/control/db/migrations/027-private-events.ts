import { defineMigration } from '../define-migration.ts';

// Events a client owns (a saved search's matches): client_id names the owner, NULL for the public
// feed every client reads; saved_search_id names the search, so an endpoint that chose some
// searches and the account page's recent alerts find theirs. The stage carries both until publish.
// An endpoint's saved_searches is a JSON array of ids, NULL for all of its client's searches.
// A saved search's revision orders the writes of its percolator query in the engine: a stale
// write (an older revision) loses to the newer one whatever order they arrive in.
export default defineMigration(
  ({ integer, text }) => `ALTER TABLE events ADD COLUMN client_id ${text};
ALTER TABLE events ADD COLUMN saved_search_id ${text};
ALTER TABLE event_stage ADD COLUMN client_id ${text};
ALTER TABLE event_stage ADD COLUMN saved_search_id ${text};
ALTER TABLE webhook_endpoints ADD COLUMN saved_searches ${text};
ALTER TABLE saved_searches ADD COLUMN revision ${integer} NOT NULL DEFAULT 1;

CREATE INDEX events_client_id ON events (client_id, id);
CREATE INDEX events_saved_search_id ON events (saved_search_id, id);
`,
);
