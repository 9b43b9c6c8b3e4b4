-- The credit ledger is the truth: every grant, charge, refund, cap, pack purchase,
-- pack expiry and overage credit is one row, and every balance below can be
-- recomputed from it (services/control/balances.ts recomputeBalances). The balance
-- tables exist so a request reads one row instead of summing history.
--
-- bucket: 'monthly' (live keys, per calendar month), 'test' (test keys, per month),
-- 'trial' (the free trial's one-time grant, period 'signup'), 'pack' (pack_id set),
-- 'overage' (billable credits past the grant; period is the UTC day YYYY-MM-DD).
-- Charges are negative, grants and overage credits positive; a refund reverses a
-- charge or an overage credit in the same bucket and period.
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'grant_adjustment', 'charge', 'refund',
    'free_trial_expired_cap', 'pack_purchase', 'pack_expiry', 'overage')),
  bucket TEXT NOT NULL CHECK (bucket IN ('monthly', 'test', 'trial', 'pack', 'overage')),
  period TEXT NOT NULL,
  pack_id TEXT,
  amount INTEGER NOT NULL,
  at TEXT NOT NULL,
  request_id TEXT
) STRICT;

CREATE INDEX credit_ledger_client_at ON credit_ledger (client_id, at);
-- Overage rows carry their UTC day as period, so billing reads one day with this index.
CREATE INDEX credit_ledger_overage_day ON credit_ledger (period, client_id) WHERE bucket = 'overage';

-- One row per client, bucket and period: what was granted and what is left.
-- capped_at marks the one free_trial_expired_cap of a trial bucket.
CREATE TABLE credit_balances (
  client_id TEXT NOT NULL REFERENCES clients (id),
  bucket TEXT NOT NULL CHECK (bucket IN ('monthly', 'test', 'trial')),
  period TEXT NOT NULL,
  granted INTEGER NOT NULL,
  remaining INTEGER NOT NULL,
  capped_at TEXT,
  PRIMARY KEY (client_id, bucket, period)
) STRICT;

-- Credit packs (spec 8.5): bought once, spent after the monthly grant, soonest-expiring first.
CREATE TABLE credit_packs (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  pack TEXT NOT NULL CHECK (pack IN ('starter', 'investigator', 'bulk', 'power')),
  credits INTEGER NOT NULL CHECK (credits > 0),
  price_usd_cents INTEGER NOT NULL,
  remaining INTEGER NOT NULL CHECK (remaining >= 0),
  purchased_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  expired_at TEXT
) STRICT;

CREATE INDEX credit_packs_client_expiry ON credit_packs (client_id, expires_at);

-- Successful (charged) requests per client, key environment and calendar month: the
-- events_count of GET /account/usage, kept beside the ledger rows that prove it.
CREATE TABLE usage_counts (
  client_id TEXT NOT NULL REFERENCES clients (id),
  env TEXT NOT NULL CHECK (env IN ('live', 'test')),
  period TEXT NOT NULL,
  events INTEGER NOT NULL,
  PRIMARY KEY (client_id, env, period)
) STRICT;

-- One overage invoice line per client and UTC day; billing run-daily recomputes it in place.
CREATE TABLE overage_invoice_lines (
  client_id TEXT NOT NULL REFERENCES clients (id),
  day TEXT NOT NULL,
  credits INTEGER NOT NULL CHECK (credits >= 0),
  amount_usd_cents INTEGER NOT NULL CHECK (amount_usd_cents >= 0),
  computed_at TEXT NOT NULL,
  PRIMARY KEY (client_id, day)
) STRICT;
