-- PostgreSQL twin of ../011-clients-and-keys.sql: clients (workspaces) and their API keys.
CREATE TABLE clients (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL REFERENCES plans (code),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'closed')),
  subscription TEXT NOT NULL DEFAULT 'active' CHECK (subscription IN ('active', 'past_due')),
  monthly_credits BIGINT CHECK (monthly_credits IS NULL OR monthly_credits >= 0),
  rpm BIGINT CHECK (rpm IS NULL OR rpm >= 1),
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  env TEXT NOT NULL CHECK (env IN ('live', 'test')),
  hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE INDEX api_keys_client ON api_keys (client_id);
