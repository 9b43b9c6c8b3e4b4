import { defineMigration } from '../define-migration.ts';

// A portfolio's private events (indexer/events/portfolio-deadlines.ts, indexer/certificates/
// portfolio-changes.ts): portfolio_id names the portfolio beside client_id, as saved_search_id
// names a search, so the feed, webhooks and a deleted portfolio's staged events find theirs. The
// stage also keeps the position, so an event staged for a position removed before publish is
// dropped. portfolio_alerts_sent holds one row per deadline alert ever recorded, its key the once-only
// rule: the job inserts the row and the event in one transaction, so however many workers or runs see
// the same day, the second insert conflicts and records nothing. A deleted position takes its rows.
export default defineMigration(
  ({ integer, text, now, strict }) => `ALTER TABLE events ADD COLUMN portfolio_id ${text};
ALTER TABLE event_stage ADD COLUMN portfolio_id ${text};
ALTER TABLE event_stage ADD COLUMN position_id ${text};

CREATE INDEX events_portfolio_id ON events (portfolio_id, id);
CREATE INDEX portfolio_positions_certificate ON portfolio_positions (certificate_id);
CREATE INDEX portfolios_follow_holder_group ON portfolios (follow_holder_group);

CREATE TABLE portfolio_alerts_sent (
  position_id ${text} NOT NULL REFERENCES portfolio_positions (id) ON DELETE CASCADE,
  kind ${text} NOT NULL,
  horizon_days ${integer} NOT NULL,
  deadline ${text} NOT NULL,
  event_id ${integer} NOT NULL,
  sent_at ${text} NOT NULL DEFAULT ${now},
  PRIMARY KEY (position_id, kind, horizon_days)
)${strict};
`,
);
