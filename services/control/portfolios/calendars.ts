import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/sql.ts';
import { PORTFOLIO_COLUMNS, type PortfolioRecord } from './records.ts';

/**
 * A portfolio's secret calendar address: a random token that calendar apps present instead of an
 * API key (read-only, one portfolio's deadlines). Shown once when made; kept as its SHA-256, so
 * it is found by its hash and never read back. Making one replaces the portfolio's old one.
 */

export interface PortfolioCalendar {
  portfolioId: string;
  createdAt: string;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** `cal_` and 43 base64url characters: 256 random bits. */
export function newCalendarToken(): string {
  return `cal_${randomBytes(32).toString('base64url')}`;
}

/** What a token can look like, checked before any lookup. */
export const CALENDAR_TOKEN = /^cal_[A-Za-z0-9_-]{43}$/;

/** Makes (or replaces) the portfolio's address; the token is in the answer only. */
export async function createPortfolioCalendar(
  sql: Sql,
  portfolioId: string,
  now = new Date(),
): Promise<PortfolioCalendar & { token: string }> {
  const token = newCalendarToken();
  const at = now.toISOString();
  await sql.transaction(async (tx) => {
    await tx.run('DELETE FROM portfolio_calendars WHERE portfolio_id = ?', [portfolioId]);
    await tx.run('INSERT INTO portfolio_calendars (portfolio_id, token_hash, created_at) VALUES (?, ?, ?)', [
      portfolioId,
      digest(token),
      at,
    ]);
  });
  return { portfolioId, createdAt: at, token };
}

/** Revokes the portfolio's address; false when it had none. */
export async function deletePortfolioCalendar(sql: Sql, portfolioId: string): Promise<boolean> {
  return (await sql.run('DELETE FROM portfolio_calendars WHERE portfolio_id = ?', [portfolioId])).changes > 0;
}

export async function portfolioCalendarOf(sql: Sql, portfolioId: string): Promise<PortfolioCalendar | undefined> {
  return sql.get<PortfolioCalendar>(
    'SELECT portfolio_id AS "portfolioId", created_at AS "createdAt" FROM portfolio_calendars WHERE portfolio_id = ?',
    [portfolioId],
  );
}

/** The portfolio a token opens, or undefined for an unknown or revoked token. */
export async function portfolioOfCalendarToken(sql: Sql, token: string): Promise<PortfolioRecord | undefined> {
  if (!CALENDAR_TOKEN.test(token)) return undefined;
  const columns = PORTFOLIO_COLUMNS.split(', ')
    .map((c) => `p.${c}`)
    .join(', ');
  return sql.get<PortfolioRecord>(
    `SELECT ${columns} FROM portfolio_calendars c JOIN portfolios p ON p.id = c.portfolio_id WHERE c.token_hash = ?`,
    [digest(token)],
  );
}
