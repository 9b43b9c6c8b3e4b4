-- The account page lists keys by the name their owner gave them and by when they were last
-- used (issue 21). Keys made before (by an operator's CLI) have no name. last_used_at is
-- written by authentication at most once a minute per key (services/api/access/authenticate.ts).
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;

-- Why an operator suspended or closed a client, shown to its users when they sign in
-- (`taxcert clients suspend <id> --reason ...`); cleared on reactivation.
ALTER TABLE clients ADD COLUMN status_reason TEXT;
