-- PostgreSQL twin of ../010-plans.sql: plans as data, seeded with the same rows.
CREATE TABLE plans (
  code TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  price_usd_cents BIGINT CHECK (price_usd_cents IS NULL OR price_usd_cents >= 0),
  monthly_credits BIGINT NOT NULL CHECK (monthly_credits >= 0),
  rpm BIGINT NOT NULL CHECK (rpm >= 1),
  rest BIGINT NOT NULL CHECK (rest IN (0, 1)),
  mcp BIGINT NOT NULL CHECK (mcp IN (0, 1)),
  csv BIGINT NOT NULL CHECK (csv IN (0, 1)),
  webhooks TEXT COLLATE "C" NOT NULL CHECK (webhooks IN ('none', 'beta', 'included')),
  overage BIGINT NOT NULL CHECK (overage IN (0, 1))
);

INSERT INTO plans (code, name, price_usd_cents, monthly_credits, rpm, rest, mcp, csv, webhooks, overage) VALUES
  ('free_trial', 'Free Trial', 0, 500, 30, 1, 0, 0, 'none', 0),
  ('developer', 'Developer', 1900, 10000, 60, 1, 1, 0, 'none', 1),
  ('pro', 'Pro', 4900, 50000, 150, 1, 1, 1, 'beta', 1),
  ('growth', 'Growth', 14900, 250000, 300, 1, 1, 1, 'included', 1),
  ('lead_feed', 'Lead Feed', 29900, 750000, 600, 1, 1, 1, 'included', 1),
  ('enterprise', 'Enterprise', NULL, 2000000000, 10000, 1, 1, 1, 'included', 0),
  ('mcp_starter', 'MCP Starter', 500, 1000, 30, 0, 1, 0, 'none', 0);
