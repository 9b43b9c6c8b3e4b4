-- Webhooks (issue 20, sections 3-4): a client's endpoints, one delivery per endpoint and
-- event, every attempt of each, and the dispatcher's cursor over the change feed (014).
-- Which plans may have endpoints is plans.webhooks (010): none, beta or included.

-- types and counties are JSON arrays, NULL for "all". after_event_id is the last event id
-- given when the endpoint was made: it receives only events recorded after its creation.
-- The signing secret is stored only encrypted (AES-256-GCM under WEBHOOK_SECRET_KEY, the
-- endpoint id as associated data): iv (12 bytes) || tag (16) || ciphertext. After a
-- rotation the previous secret keeps signing beside the new one until
-- previous_secret_expires_at, so a receiver can deploy the new secret without a gap.
-- failing_since is the first failed attempt of the current unbroken run of failures
-- (NULL after any success): the endpoint is disabled once it reaches WEBHOOK_DISABLE_AFTER.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  url TEXT NOT NULL,
  types TEXT,
  counties TEXT,
  status TEXT NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason TEXT CHECK (disabled_reason IN ('operator', 'gone', 'failing')),
  disabled_at TEXT,
  secret BLOB NOT NULL,
  previous_secret BLOB,
  previous_secret_expires_at TEXT,
  secret_rotated_at TEXT,
  after_event_id INTEGER NOT NULL,
  failing_since TEXT,
  created_at TEXT NOT NULL,
  CHECK ((status = 'enabled') = (disabled_reason IS NULL))
) STRICT;

CREATE INDEX webhook_endpoints_client ON webhook_endpoints (client_id, created_at);
CREATE INDEX webhook_endpoints_enabled ON webhook_endpoints (status) WHERE status = 'enabled';

-- One row per endpoint and event: the state of its delivery. generation counts replays; the
-- queue job of a delivery is named for (endpoint, event, generation), so a job left over from
-- before a replay, or added twice after a crash, finds its generation gone and does nothing.
-- enqueued = 0 marks rows written but not yet handed to the queue (the outbox the worker
-- drains), so a crash between the two steps loses nothing. Rows go with their event when
-- the feed prunes it (90 days), and with their endpoint when it is deleted.
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  generation INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  enqueued INTEGER NOT NULL DEFAULT 0 CHECK (enqueued IN (0, 1)),
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (endpoint_id, event_id)
) STRICT;

CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_outbox ON webhook_deliveries (id) WHERE enqueued = 0;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_status ON webhook_deliveries (endpoint_id, status, id);

-- Every attempt, kept: when, how long, the HTTP status or the network error, and the first
-- 1 KB of the answer. attempt numbers restart at 1 with each generation (a replay).
CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  generation INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  http_status INTEGER,
  error TEXT,
  response_body TEXT
) STRICT;

CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);

-- The dispatcher's durable cursor over events: the last event id fanned out. It starts at
-- the last id already given, since no endpoint existed before this migration.
CREATE TABLE webhook_dispatch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_event_id INTEGER NOT NULL
) STRICT;

INSERT INTO webhook_dispatch (id, last_event_id)
  VALUES (1, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0));
