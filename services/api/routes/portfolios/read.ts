import type { Sql } from '../../../control/db/sql.ts';
import { listPortfolios, type PortfolioRecord, portfolioOf, type PositionRecord } from '../../../control/portfolios/index.ts';
import type { Principal } from '../../access/authenticate.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { NotFoundError } from '../../errors.ts';
import type { PortfolioPath, PortfoliosParams } from './params.ts';
import type { PortfolioRow, PositionRow } from './row.ts';

/** Who a portfolio belongs to and under which plan: what these functions read of the caller. */
export type PortfolioOwner = Pick<Principal, 'client' | 'plan'>;

/** The one public rendering of a portfolio. */
export function mapPortfolio(p: PortfolioRecord): PortfolioRow {
  return { id: p.id, name: p.name, follow_holder_group: p.follow_holder_group, created_at: p.created_at, updated_at: p.updated_at };
}

/** A position as its creation answers it; `resolved`: its certificate was loaded then. */
export function mapPosition(p: PositionRecord, resolved: boolean): PositionRow {
  return {
    id: p.id,
    portfolio_id: p.portfolio_id,
    certificate_id: p.certificate_id,
    county: p.county_slug,
    certificate_number: p.certificate_number,
    tax_year: p.tax_year,
    acquired_on: p.acquired_on,
    // Cents are whole, so dividing by 100 gives the 2-decimal dollars the client sent.
    acquired_amount: p.acquired_amount_cents === null ? null : p.acquired_amount_cents / 100,
    note: p.note,
    created_at: p.created_at,
    resolved,
  };
}

export function portfolioNotFound(id: string): NotFoundError {
  return new NotFoundError(`no portfolio ${JSON.stringify(id)}; GET /api/v1/portfolios lists yours`);
}

/** The client's own portfolio; another client's is as unknown as a missing one (404). */
export async function ownPortfolio(sql: Sql, principal: PortfolioOwner, id: string): Promise<PortfolioRecord> {
  const found = await portfolioOf(sql, principal.client.id, id);
  if (!found) throw portfolioNotFound(id);
  return found;
}

/** GET /portfolios: the calling client's portfolios, oldest first. */
export async function readPortfolios(
  deps: { sql: Sql },
  principal: PortfolioOwner,
  params: PortfoliosParams,
): Promise<ListResult<PortfolioRow>> {
  const { rows, total } = await listPortfolios(deps.sql, principal.client.id, params);
  return { rows: rows.map(mapPortfolio), limit: params.limit, offset: params.offset, total };
}

/** GET /portfolios/{id}. */
export async function readPortfolio(
  deps: { sql: Sql },
  principal: PortfolioOwner,
  path: PortfolioPath,
): Promise<ObjectResult<PortfolioRow>> {
  return { data: mapPortfolio(await ownPortfolio(deps.sql, principal, path.id)) };
}
