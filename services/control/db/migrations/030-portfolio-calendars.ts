import { defineMigration } from '../define-migration.ts';

// A portfolio's secret calendar address (services/control/portfolios/calendars.ts): calendar apps
// fetch /calendar/<token>.ics without an API key, so the token is the credential. Only its
// SHA-256 is kept (a copy of the database gives no address away); one address per portfolio, a
// new one replacing the old; it goes with its portfolio.
export default defineMigration(
  ({ text, now, strict }) => `CREATE TABLE portfolio_calendars (
  portfolio_id ${text} PRIMARY KEY REFERENCES portfolios (id) ON DELETE CASCADE,
  token_hash ${text} NOT NULL UNIQUE,
  created_at ${text} NOT NULL DEFAULT ${now}
)${strict};
`,
);
