-- Replays a client may ask for: a token bucket per client, kept as the time its
-- bucket is next empty of debt (GCRA's theoretical arrival time, epoch milliseconds). One row
-- per client that has replayed; a replay moves the time forward by one emission interval and
-- is refused when that would put it more than a minute ahead of now.
CREATE TABLE webhook_replay_budget (
  client_id TEXT PRIMARY KEY REFERENCES clients (id),
  next_free_at INTEGER NOT NULL
) STRICT;
