import { inJsonArray, type Sql } from '../db/sql.ts';
import { type NewPosition, newPositionId, POSITION_COLUMNS, type PositionRecord, positionRecord } from './records.ts';

/**
 * A portfolio's positions: added many at a time (up to the API's 10,000 lines a request) in
 * one transaction, one multi-row INSERT per chunk, so 10,000 positions take one lock and a few
 * dozen statements rather than 10,000 round trips.
 */

/** Rows per INSERT: 500 rows of 10 values stay far below both engines' bound on parameters (SQLite 32,766, PostgreSQL 65,535). */
const INSERT_CHUNK = 500;

/** What became of one line given to addPositions, in the order given. */
export type AddedPosition =
  | { status: 'created'; position: PositionRecord }
  /** The certificate is already held: by a position of the portfolio, or by an earlier line (0-based) of the same call. */
  | { status: 'duplicate'; positionId: string }
  | { status: 'duplicate'; line: number };

/** Adding the lines would leave the portfolio with more than `limit` positions; nothing was added. */
export class PositionLimitError extends Error {
  override name = 'PositionLimitError';
  constructor(
    readonly portfolioId: string,
    readonly limit: number,
    readonly held: number,
    readonly adding: number,
  ) {
    super(`portfolio ${portfolioId} holds ${held} positions; ${adding} more would pass its limit of ${limit}`);
  }
}

/** The lock the writes of one portfolio's positions serialize on (PostgreSQL; SQLite serializes every writer). */
export function portfolioLock(portfolioId: string): string {
  return `portfolio:${portfolioId}`;
}

/** The positions of a portfolio, ordered by created_at, id. */
export async function positionsOf(sql: Sql, portfolioId: string): Promise<PositionRecord[]> {
  const rows = await sql.all<PositionRecord>(
    `SELECT ${POSITION_COLUMNS} FROM portfolio_positions WHERE portfolio_id = ? ORDER BY created_at, id`,
    [portfolioId],
  );
  return rows.map(positionRecord);
}

/** How many positions a portfolio holds. */
export async function positionCount(sql: Sql, portfolioId: string): Promise<number> {
  return Number((await sql.get<{ n: number }>('SELECT count(*) AS n FROM portfolio_positions WHERE portfolio_id = ?', [portfolioId]))!.n);
}

/**
 * Adds the lines to the portfolio in one transaction: each certificate the portfolio already
 * holds, or an earlier line already adds, is reported as a duplicate and the rest are inserted,
 * unless that would pass `limit` positions (PositionLimitError, nothing added). undefined when
 * the portfolio no longer exists (deleted since the caller read it). The caller checked that
 * the portfolio is its client's.
 */
export async function addPositions(
  sql: Sql,
  portfolioId: string,
  lines: readonly NewPosition[],
  limit: number,
  now = new Date(),
): Promise<AddedPosition[] | undefined> {
  return sql.transaction(
    async (tx) => {
      if (!(await tx.get('SELECT id FROM portfolios WHERE id = ?', [portfolioId]))) return undefined;
      const held = new Map<string, string>();
      const wanted = [...new Set(lines.map((l) => l.certificate_id))];
      const existing = await tx.all<{ id: string; certificate_id: string }>(
        `SELECT id, certificate_id FROM portfolio_positions WHERE portfolio_id = ? AND ${inJsonArray(tx.dialect, 'certificate_id', '?')}`,
        [portfolioId, JSON.stringify(wanted)],
      );
      for (const row of existing) held.set(row.certificate_id, row.id);

      const at = now.toISOString();
      const firstLine = new Map<string, number>();
      const fresh: PositionRecord[] = [];
      const out: AddedPosition[] = lines.map((line, i) => {
        const positionId = held.get(line.certificate_id);
        if (positionId !== undefined) return { status: 'duplicate', positionId };
        const earlier = firstLine.get(line.certificate_id);
        if (earlier !== undefined) return { status: 'duplicate', line: earlier };
        firstLine.set(line.certificate_id, i);
        const position: PositionRecord = { id: newPositionId(), portfolio_id: portfolioId, ...line, created_at: at };
        fresh.push(position);
        return { status: 'created', position };
      });
      if (fresh.length === 0) return out;
      const count = await positionCount(tx, portfolioId);
      if (count + fresh.length > limit) throw new PositionLimitError(portfolioId, limit, count, fresh.length);
      for (let i = 0; i < fresh.length; i += INSERT_CHUNK) await insertChunk(tx, fresh.slice(i, i + INSERT_CHUNK));
      await bumpRevision(tx, portfolioId);
      return out;
    },
    { lock: portfolioLock(portfolioId) },
  );
}

async function insertChunk(tx: Sql, rows: readonly PositionRecord[]): Promise<void> {
  const values: unknown[] = [];
  for (const p of rows)
    values.push(
      p.id,
      p.portfolio_id,
      p.certificate_id,
      p.county_slug,
      p.certificate_number,
      p.tax_year,
      p.acquired_on,
      p.acquired_amount_cents,
      p.note,
      p.created_at,
    );
  await tx.run(
    `INSERT INTO portfolio_positions (${POSITION_COLUMNS}) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    values,
  );
}

/** Deletes one position of the portfolio; false when the portfolio has none with this id (a second delete is a 404). */
export async function deletePosition(sql: Sql, portfolioId: string, positionId: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const gone = (await tx.run('DELETE FROM portfolio_positions WHERE id = ? AND portfolio_id = ?', [positionId, portfolioId])).changes > 0;
    if (gone) await bumpRevision(tx, portfolioId);
    return gone;
  });
}

/** Every change of a portfolio's positions moves its revision, in the change's own transaction. */
async function bumpRevision(tx: Sql, portfolioId: string): Promise<void> {
  await tx.run('UPDATE portfolios SET positions_revision = positions_revision + 1 WHERE id = ?', [portfolioId]);
}
