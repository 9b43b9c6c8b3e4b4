import { defineMigration } from '../define-migration.ts';

// Deadline alerts of the certificates a portfolio holds by following a holder group: no row of
// portfolio_positions names them (their position ids are derived, services/domain/position-ids.ts),
// so their once-only key is the portfolio and the certificate. The portfolio takes its rows with it.
export default defineMigration(
  ({ integer, text, now, strict }) => `CREATE TABLE portfolio_group_alerts_sent (
  portfolio_id ${text} NOT NULL REFERENCES portfolios (id) ON DELETE CASCADE,
  certificate_id ${text} NOT NULL,
  kind ${text} NOT NULL,
  horizon_days ${integer} NOT NULL,
  deadline ${text} NOT NULL,
  event_id ${integer} NOT NULL,
  sent_at ${text} NOT NULL DEFAULT ${now},
  PRIMARY KEY (portfolio_id, certificate_id, kind, horizon_days)
)${strict};
`,
);
