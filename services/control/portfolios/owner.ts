import type { Sql } from '../db/sql.ts';

/**
 * Whose a portfolio is, by its id alone: what an operator's command (`taxcert portfolios import`,
 * `summary`) needs to act as that client, through the client's own write and read functions.
 * The API never asks this: a client reaches only its own portfolios (portfolioOf).
 */
export async function portfolioClientOf(sql: Sql, portfolioId: string): Promise<string | undefined> {
  return (await sql.get<{ client_id: string }>('SELECT client_id FROM portfolios WHERE id = ?', [portfolioId]))?.client_id;
}
