-- The account page (issue 21): people who sign in, their sessions and the single-use links
-- mailed to them. A user belongs to one client (workspace); sign-up creates both.
--
-- email is stored trimmed and lower-cased (services/control/users.ts), so UNIQUE is exact.
-- password_hash is an argon2id PHC string; email_verified_at gates key creation.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  email_verified_at TEXT,
  created_at TEXT NOT NULL,
  last_sign_in_at TEXT
) STRICT;

CREATE INDEX users_client ON users (client_id);

-- Server-side sessions. The cookie carries a random id; only its SHA-256 is kept, so a copy
-- of the database cannot be replayed as a cookie. A session ends when idle for 30 minutes or
-- 12 hours after it began, whichever is first (services/control/sessions.ts).
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
) STRICT;

CREATE INDEX sessions_user ON sessions (user_id);

-- Single-use links (verify an address, reset a password): only the token's SHA-256 is kept.
-- used_at is set by the one UPDATE that consumes it, so a replayed link finds it spent.
CREATE TABLE email_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
) STRICT;

CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);
