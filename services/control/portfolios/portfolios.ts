import type { Sql } from '../db/sql.ts';
import { portfolioLock } from './positions.ts';
import { newPortfolioId, PORTFOLIO_COLUMNS, type PortfolioRecord } from './records.ts';

/**
 * A client's portfolios. The per-plan limit is the caller's: create counts and inserts in one
 * transaction, so two concurrent creations cannot both pass it.
 */

/** The client already owns `limit` portfolios. */
export class PortfolioLimitError extends Error {
  override name = 'PortfolioLimitError';
  constructor(
    readonly clientId: string,
    readonly limit: number,
  ) {
    super(`client ${clientId} already has ${limit} portfolios`);
  }
}

export async function createPortfolio(
  sql: Sql,
  input: { clientId: string; name: string; followHolderGroup: string | null; limit: number },
  now = new Date(),
): Promise<PortfolioRecord> {
  return sql.transaction(async (tx) => {
    const count = (await tx.get<{ n: number }>('SELECT count(*) AS n FROM portfolios WHERE client_id = ?', [input.clientId]))!.n;
    if (Number(count) >= input.limit) throw new PortfolioLimitError(input.clientId, input.limit);
    const id = newPortfolioId();
    const at = now.toISOString();
    await tx.run('INSERT INTO portfolios (id, client_id, name, follow_holder_group, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      input.clientId,
      input.name,
      input.followHolderGroup,
      at,
      at,
    ]);
    return (await tx.get<PortfolioRecord>(`SELECT ${PORTFOLIO_COLUMNS} FROM portfolios WHERE id = ?`, [id]))!;
  });
}

/** The client's own portfolio; another client's is undefined, as a missing one is. */
export async function portfolioOf(sql: Sql, clientId: string, id: string): Promise<PortfolioRecord | undefined> {
  return sql.get<PortfolioRecord>(`SELECT ${PORTFOLIO_COLUMNS} FROM portfolios WHERE id = ? AND client_id = ?`, [id, clientId]);
}

/** One page of the client's portfolios, oldest first, with how many there are. */
export async function listPortfolios(
  sql: Sql,
  clientId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: PortfolioRecord[]; total: number }> {
  const rows = await sql.all<PortfolioRecord>(
    `SELECT ${PORTFOLIO_COLUMNS} FROM portfolios WHERE client_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
    [clientId, page.limit, page.offset],
  );
  const total = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM portfolios WHERE client_id = ?', [clientId]))!.n;
  return { rows, total: Number(total) };
}

/**
 * Renames and/or changes the followed holder group in one UPDATE, so of two concurrent changes
 * one is kept whole. `followHolderGroup`: undefined leaves it, null clears it. Only the client's
 * own row changes; false when it has none with this id.
 */
export async function updatePortfolio(
  sql: Sql,
  clientId: string,
  id: string,
  change: { name?: string; followHolderGroup?: string | null },
  now = new Date(),
): Promise<boolean> {
  const follow = change.followHolderGroup !== undefined;
  const result = await sql.run(
    `UPDATE portfolios SET name = coalesce(?, name), follow_holder_group = ${follow ? '?' : 'follow_holder_group'}, updated_at = ?
     WHERE id = ? AND client_id = ?`,
    follow
      ? [change.name ?? null, change.followHolderGroup, now.toISOString(), id, clientId]
      : [change.name ?? null, now.toISOString(), id, clientId],
  );
  return result.changes > 0;
}

/** Deletes the client's own portfolio with its positions; false when it has none with this id (a second delete is a 404). */
export async function deletePortfolio(sql: Sql, clientId: string, id: string): Promise<boolean> {
  // The foreign key cascades on both engines; the explicit DELETE keeps it so on a connection that has foreign keys off.
  return sql.transaction(
    async (tx) => {
      const owned = await tx.get('SELECT id FROM portfolios WHERE id = ? AND client_id = ?', [id, clientId]);
      if (!owned) return false;
      await tx.run('DELETE FROM portfolio_positions WHERE portfolio_id = ?', [id]);
      await tx.run('DELETE FROM portfolios WHERE id = ?', [id]);
      return true;
    },
    { lock: portfolioLock(id) },
  );
}
