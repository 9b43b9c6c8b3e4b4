import { defineMigration } from '../define-migration.ts';

// A client's portfolios (services/control/portfolios/): the tax certificates it holds, by the
// certificate's deterministic id (services/domain/ids.ts), so a position whose certificate is not
// loaded yet resolves once an ingest writes that id. The county, number and year are kept beside
// the id to say what the position is without the engine. A certificate is held once per
// portfolio (the unique key, which the per-request check of duplicates relies on); a portfolio's
// positions go with it (ON DELETE CASCADE: SQLite's connection turns foreign keys on).
export default defineMigration(
  ({ integer, text, now, strict }) => `CREATE TABLE portfolios (
  id ${text} PRIMARY KEY,
  client_id ${text} NOT NULL REFERENCES clients (id),
  name ${text} NOT NULL,
  follow_holder_group ${text},
  created_at ${text} NOT NULL DEFAULT ${now},
  updated_at ${text} NOT NULL DEFAULT ${now}
)${strict};

CREATE INDEX portfolios_client ON portfolios (client_id, created_at, id);

CREATE TABLE portfolio_positions (
  id ${text} PRIMARY KEY,
  portfolio_id ${text} NOT NULL REFERENCES portfolios (id) ON DELETE CASCADE,
  certificate_id ${text} NOT NULL,
  county_slug ${text} NOT NULL,
  certificate_number ${text} NOT NULL,
  tax_year ${integer} NOT NULL,
  acquired_on ${text},
  acquired_amount_cents ${integer},
  note ${text},
  created_at ${text} NOT NULL DEFAULT ${now},
  UNIQUE (portfolio_id, certificate_id)
)${strict};

CREATE INDEX portfolio_positions_portfolio ON portfolio_positions (portfolio_id, created_at, id);
`,
);
