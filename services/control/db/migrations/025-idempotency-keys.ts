import { defineMigration } from '../define-migration.ts';

// The Idempotency-Key of a write (services/api/writes/idempotency.ts): one row per client and
// key. The primary key is what keeps two concurrent retries with one key from both running: the
// second insert fails and that request answers 409. status and body stay NULL while the first
// request runs, then hold the answer to replay for 24 hours.
export default defineMigration(
  ({ integer, text, now, strict }) => `CREATE TABLE idempotency_keys (
  client_id ${text} NOT NULL REFERENCES clients (id),
  idempotency_key ${text} NOT NULL,
  fingerprint ${text} NOT NULL,
  status ${integer},
  body ${text},
  created_at ${text} NOT NULL DEFAULT ${now},
  PRIMARY KEY (client_id, idempotency_key)
)${strict};

CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`,
);
