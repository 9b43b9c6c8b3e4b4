import { defineMigration } from '../define-migration.ts';

// A portfolio's positions_revision grows by one whenever its positions change (added or
// deleted), so a reader that kept what it computed of the positions knows, from the portfolio's
// row alone, whether that is still its portfolio (services/api/routes/portfolios/market-snapshot.ts).
export default defineMigration(
  ({ integer }) => `ALTER TABLE portfolios ADD COLUMN positions_revision ${integer} NOT NULL DEFAULT 0;
`,
);
