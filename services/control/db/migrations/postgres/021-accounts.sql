-- PostgreSQL twin of ../021-accounts.sql: users, their sessions and single-use email links.
CREATE TABLE users (
  id TEXT COLLATE "C" PRIMARY KEY,
  client_id TEXT COLLATE "C" NOT NULL REFERENCES clients (id),
  email TEXT COLLATE "C" NOT NULL UNIQUE,
  password_hash TEXT COLLATE "C" NOT NULL,
  email_verified_at TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL,
  last_sign_in_at TEXT COLLATE "C"
);

CREATE INDEX users_client ON users (client_id);

CREATE TABLE sessions (
  id_hash TEXT COLLATE "C" PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT COLLATE "C" NOT NULL,
  last_seen_at TEXT COLLATE "C" NOT NULL
);

CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE email_tokens (
  token_hash TEXT COLLATE "C" PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose TEXT COLLATE "C" NOT NULL CHECK (purpose IN ('verify', 'reset')),
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  used_at TEXT COLLATE "C"
);

CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);
