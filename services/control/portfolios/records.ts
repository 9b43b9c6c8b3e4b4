import { randomBytes } from 'node:crypto';

/**
 * A client's portfolio and its positions as the control plane keeps them (migration
 * 028-portfolios.ts). The API checks every value; these modules only keep them.
 */
export interface PortfolioRecord {
  id: string;
  client_id: string;
  name: string;
  /** A holder group id (grp_<20 hex>, as GET /api/v1/analytics/holders names groups) whose new certificates the client follows, or null. */
  follow_holder_group: string | null;
  created_at: string;
  updated_at: string;
  /** Grows by one at every change of the portfolio's positions. */
  positions_revision: number;
}

export interface PositionRecord {
  id: string;
  portfolio_id: string;
  /** certificateId(county_slug, tax_year, certificate_number): deterministic, so it resolves once an ingest loads it. */
  certificate_id: string;
  county_slug: string;
  certificate_number: string;
  tax_year: number;
  /** YYYY-MM-DD, or null when not given. */
  acquired_on: string | null;
  /** What the client paid, in cents; null means the certificate's face amount. */
  acquired_amount_cents: number | null;
  note: string | null;
  created_at: string;
}

/** The fields of a position its creator chooses; id, portfolio_id and created_at are the store's. */
export type NewPosition = Omit<PositionRecord, 'id' | 'portfolio_id' | 'created_at'>;

// 16 characters of base64url (12 random bytes), as saved searches make their ss_ ids.
export function newPortfolioId(): string {
  return `pf_${randomBytes(12).toString('base64url')}`;
}

export function newPositionId(): string {
  return `pos_${randomBytes(12).toString('base64url')}`;
}

export const PORTFOLIO_COLUMNS = 'id, client_id, name, follow_holder_group, created_at, updated_at, positions_revision';
export const POSITION_COLUMNS =
  'id, portfolio_id, certificate_id, county_slug, certificate_number, tax_year, acquired_on, acquired_amount_cents, note, created_at';

/** PostgreSQL's BIGINT comes back as a number already (sql.ts); Number() keeps SQLite and PostgreSQL rows alike whatever the driver. */
export function positionRecord(row: PositionRecord): PositionRecord {
  return {
    ...row,
    tax_year: Number(row.tax_year),
    acquired_amount_cents: row.acquired_amount_cents === null ? null : Number(row.acquired_amount_cents),
  };
}
