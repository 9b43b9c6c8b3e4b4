-- PostgreSQL twin of ../011-clients-and-keys.sql: clients (workspaces) and their API keys.
CREATE TABLE clients (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  plan TEXT COLLATE "C" NOT NULL REFERENCES plans (code),
  status TEXT COLLATE "C" NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'closed')),
  subscription TEXT COLLATE "C" NOT NULL DEFAULT 'active' CHECK (subscription IN ('active', 'past_due')),
  monthly_credits BIGINT CHECK (monthly_credits IS NULL OR monthly_credits >= 0),
  rpm BIGINT CHECK (rpm IS NULL OR rpm >= 1),
  created_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  client_id TEXT COLLATE "C" NOT NULL REFERENCES clients (id),
  env TEXT COLLATE "C" NOT NULL CHECK (env IN ('live', 'test')),
  hash TEXT COLLATE "C" NOT NULL UNIQUE,
  hint TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  revoked_at TEXT COLLATE "C"
);

CREATE INDEX api_keys_client ON api_keys (client_id);
