import { defineMigration } from '../define-migration.ts';

// A client's saved searches (services/control/feed/saved-searches.ts): a name and the filters of
// a certificate search, as JSON text in the form the search's own parameter reading produces.
// Listed per client oldest first, hence the index.
export default defineMigration(
  ({ text, now, strict }) => `CREATE TABLE saved_searches (
  id ${text} PRIMARY KEY,
  client_id ${text} NOT NULL REFERENCES clients (id),
  name ${text} NOT NULL,
  params ${text} NOT NULL,
  created_at ${text} NOT NULL DEFAULT ${now},
  updated_at ${text} NOT NULL DEFAULT ${now}
)${strict};

CREATE INDEX saved_searches_client ON saved_searches (client_id, created_at, id);
`,
);
