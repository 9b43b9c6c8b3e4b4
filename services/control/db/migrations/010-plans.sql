-- Plans as data (spec 8.2): the operator changes numbers with `taxcert plans set` and
-- the running server applies them from its next request (nothing caches a plan).
-- Prices are whole US cents; webhooks is none, beta or included. overage marks the
-- paid plans (Developer to Lead Feed) that keep answering past their monthly grant.
CREATE TABLE plans (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  price_usd_cents INTEGER CHECK (price_usd_cents IS NULL OR price_usd_cents >= 0),
  monthly_credits INTEGER NOT NULL CHECK (monthly_credits >= 0),
  rpm INTEGER NOT NULL CHECK (rpm >= 1),
  rest INTEGER NOT NULL CHECK (rest IN (0, 1)),
  mcp INTEGER NOT NULL CHECK (mcp IN (0, 1)),
  csv INTEGER NOT NULL CHECK (csv IN (0, 1)),
  webhooks TEXT NOT NULL CHECK (webhooks IN ('none', 'beta', 'included')),
  overage INTEGER NOT NULL CHECK (overage IN (0, 1))
) STRICT;

-- Free Trial's 500 is granted once at signup, not monthly; Enterprise's numbers are the
-- defaults for a client whose contract sets none (clients.monthly_credits / clients.rpm).
INSERT INTO plans (code, name, price_usd_cents, monthly_credits, rpm, rest, mcp, csv, webhooks, overage) VALUES
  ('free_trial', 'Free Trial', 0, 500, 30, 1, 0, 0, 'none', 0),
  ('developer', 'Developer', 1900, 10000, 60, 1, 1, 0, 'none', 1),
  ('pro', 'Pro', 4900, 50000, 150, 1, 1, 1, 'beta', 1),
  ('growth', 'Growth', 14900, 250000, 300, 1, 1, 1, 'included', 1),
  ('lead_feed', 'Lead Feed', 29900, 750000, 600, 1, 1, 1, 'included', 1),
  ('enterprise', 'Enterprise', NULL, 2000000000, 10000, 1, 1, 1, 'included', 0),
  ('mcp_starter', 'MCP Starter', 500, 1000, 30, 0, 1, 0, 'none', 0);
