-- A client (workspace) owns keys; all its keys share one credit bucket and one
-- per-minute window. monthly_credits and rpm override the plan's numbers (Enterprise
-- contracts); NULL means "the plan's".
CREATE TABLE clients (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL REFERENCES plans (code),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'closed')),
  subscription TEXT NOT NULL DEFAULT 'active' CHECK (subscription IN ('active', 'past_due')),
  monthly_credits INTEGER CHECK (monthly_credits IS NULL OR monthly_credits >= 0),
  rpm INTEGER CHECK (rpm IS NULL OR rpm >= 1),
  created_at TEXT NOT NULL
) STRICT;

-- Only the HMAC-SHA256 of a key is stored (hex); the raw key is shown once. hint is the
-- last four characters, enough for an operator to tell keys apart in a listing.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  env TEXT NOT NULL CHECK (env IN ('live', 'test')),
  hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

CREATE INDEX api_keys_client ON api_keys (client_id);
