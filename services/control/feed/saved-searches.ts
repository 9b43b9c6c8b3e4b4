import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/sql.ts';

/**
 * A client's saved searches: a name and the filters of a certificate search, stored as JSON
 * text exactly as the API's parameter reading produced them (the API checks them; this module
 * only keeps them). The per-plan limit is the caller's: create counts and inserts in one
 * transaction so two concurrent creations cannot both pass it.
 */
export interface SavedSearch {
  id: string;
  clientId: string;
  name: string;
  params: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** 1 at creation, one more at each change: orders the writes of its percolator query in the engine. */
  revision: number;
}

interface Row {
  id: string;
  clientId: string;
  name: string;
  params: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
}

const COLUMNS = 'id, client_id AS "clientId", name, params, created_at AS "createdAt", updated_at AS "updatedAt", revision';

function mapRow(row: Row): SavedSearch {
  return { ...row, revision: Number(row.revision), params: JSON.parse(row.params) as Record<string, unknown> };
}

export function newSavedSearchId(): string {
  return `ss_${randomBytes(12).toString('base64url')}`;
}

/** The client already owns `limit` saved searches. */
export class SavedSearchLimitError extends Error {
  override name = 'SavedSearchLimitError';
  constructor(
    readonly clientId: string,
    readonly limit: number,
  ) {
    super(`client ${clientId} already has ${limit} saved searches`);
  }
}

export async function createSavedSearch(
  sql: Sql,
  input: { clientId: string; name: string; params: Record<string, unknown>; limit: number },
  now = new Date(),
): Promise<SavedSearch> {
  return sql.transaction(async (tx) => {
    const count = (await tx.get<{ n: number }>('SELECT count(*) AS n FROM saved_searches WHERE client_id = ?', [input.clientId]))!.n;
    if (Number(count) >= input.limit) throw new SavedSearchLimitError(input.clientId, input.limit);
    const id = newSavedSearchId();
    const at = now.toISOString();
    await tx.run('INSERT INTO saved_searches (id, client_id, name, params, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      input.clientId,
      input.name,
      JSON.stringify(input.params),
      at,
      at,
    ]);
    return (await getSavedSearch(tx, id))!;
  });
}

export async function getSavedSearch(sql: Sql, id: string): Promise<SavedSearch | null> {
  const row = await sql.get<Row>(`SELECT ${COLUMNS} FROM saved_searches WHERE id = ?`, [id]);
  return row ? mapRow(row) : null;
}

/** One page of the client's saved searches, oldest first, with how many there are. */
export async function listSavedSearches(
  sql: Sql,
  clientId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: SavedSearch[]; total: number }> {
  const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM saved_searches WHERE client_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`, [
    clientId,
    page.limit,
    page.offset,
  ]);
  const total = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM saved_searches WHERE client_id = ?', [clientId]))!.n;
  return { rows: rows.map(mapRow), total: Number(total) };
}

/**
 * Renames and/or replaces the filters in one UPDATE, so of two concurrent changes one is kept
 * whole, never a mix. Only the client's own row changes; false when it has none with this id.
 */
export async function updateSavedSearch(
  sql: Sql,
  clientId: string,
  id: string,
  change: { name?: string; params?: Record<string, unknown> },
  now = new Date(),
): Promise<boolean> {
  const result = await sql.run(
    'UPDATE saved_searches SET name = coalesce(?, name), params = coalesce(?, params), updated_at = ?, revision = revision + 1 WHERE id = ? AND client_id = ?',
    [change.name ?? null, change.params === undefined ? null : JSON.stringify(change.params), now.toISOString(), id, clientId],
  );
  return result.changes > 0;
}

/** Deletes the client's own saved search; false when it has none with this id (so a second delete is a 404). */
export async function deleteSavedSearch(sql: Sql, clientId: string, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM saved_searches WHERE id = ? AND client_id = ?', [id, clientId])).changes > 0;
}

/** Every saved search, for rebuilding their percolator queries; oldest first, one page at a time. */
export async function savedSearchesAfter(sql: Sql, afterId: string, limit: number): Promise<SavedSearch[]> {
  const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM saved_searches WHERE id > ? ORDER BY id LIMIT ?`, [afterId, limit]);
  return rows.map(mapRow);
}

/** The owner and name of each saved search that still exists, by id: a deleted one is left out. */
export async function savedSearchOwners(sql: Sql, ids: readonly string[]): Promise<Map<string, { clientId: string; name: string }>> {
  const out = new Map<string, { clientId: string; name: string }>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await sql.all<{ id: string; clientId: string; name: string }>(
      `SELECT id, client_id AS "clientId", name FROM saved_searches WHERE id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const r of rows) out.set(r.id, { clientId: r.clientId, name: r.name });
  }
  return out;
}
