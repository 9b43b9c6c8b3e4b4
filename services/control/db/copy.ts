import { migrate } from './migrate.ts';
import type { Sql } from './sql.ts';
import type { SqliteSql } from './sqlite.ts';

/**
 * Moves a deployment's control plane from its SQLite file into an empty PostgreSQL database,
 * when the deployment grows past one host: `taxcert control-plane copy --to postgres://...`.
 * Every table is copied whole, in one PostgreSQL transaction (the target holds all of it or
 * none of it), while the source is held by a write transaction (no writer can slip a row in
 * between the tables); then the copy is checked: the same rows per table. What the rows mean
 * (every client's balances against both ledgers) is checked on top of this by copyControlPlane
 * (../control-plane.ts), which owns the rooms' knowledge.
 */

export class CopyError extends Error {
  override name = 'CopyError';
  constructor(
    readonly code: 'target_not_empty' | 'schema_mismatch' | 'verify_failed',
    message: string,
  ) {
    super(message);
  }
}

export interface TableCopy {
  table: string;
  rows: number;
}

/** Tables no fresh database has rows in: counties are seeded and the stack claimed on every open. */
const IN_USE_WHEN_FILLED = ['stack', 'counties', 'clients', 'events'];

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMS = 60_000;
const MAX_ROWS = 1_000;

/** Copies every table of `from` into the empty `to` and checks the row counts; the tables copied, in order. */
export async function copyTables(from: SqliteSql, to: Sql, onTable: (t: TableCopy) => void = () => undefined): Promise<TableCopy[]> {
  await migrate(to);
  const sourceVersions = await versions(from);
  const targetVersions = await versions(to);
  if (sourceVersions.join(',') !== targetVersions.join(','))
    throw new CopyError(
      'schema_mismatch',
      `source migrations ${sourceVersions.join(',')} differ from the target's ${targetVersions.join(',')}`,
    );
  const tables = await tablesInOrder(from);
  // Any use of a control plane claims it for a stack and seeds the counties: a target holding
  // either is in use. The rows the migrations themselves insert (plans, dataset state, the
  // dispatch cursor) are replaced by the source's, which an operator may have changed.
  for (const table of IN_USE_WHEN_FILLED) {
    const row = await to.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`);
    if ((row?.n ?? 0) > 0)
      throw new CopyError('target_not_empty', `the target's table ${table} has ${row?.n} rows: copy into an empty database`);
  }

  const copied: TableCopy[] = [];
  await from.transaction((src) =>
    to.transaction(async (dst) => {
      for (const table of [...tables].reverse()) await dst.run(`DELETE FROM ${quote(table)}`);
      for (const table of tables) {
        const columns = (await src.all<{ name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table])).map((c) => c.name);
        const targetColumns = new Set(
          (
            await dst.all<{ column_name: string }>(
              'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?',
              [table],
            )
          ).map((c) => c.column_name),
        );
        const missing = columns.filter((c) => !targetColumns.has(c));
        if (missing.length > 0) throw new CopyError('schema_mismatch', `the target's table ${table} has no column ${missing.join(', ')}`);
        const rows = await copyTable(src, dst, table, columns);
        const done = { table, rows };
        copied.push(done);
        onTable(done);
      }
      await resetIdentities(dst);
    }),
  );

  for (const t of copied) {
    const row = await to.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(t.table)}`);
    if (row?.n !== t.rows) throw new CopyError('verify_failed', `table ${t.table}: ${t.rows} rows copied, ${row?.n} in the target`);
  }
  return copied;
}

async function versions(sql: Sql): Promise<number[]> {
  return (await sql.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
}

/** The source's tables, every table after the tables its foreign keys point at. */
async function tablesInOrder(from: Sql): Promise<string[]> {
  const names = (
    await from.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
    )
  ).map((r) => r.name);
  const parents = new Map<string, string[]>();
  for (const name of names)
    parents.set(
      name,
      (await from.all<{ table: string }>('SELECT "table" FROM pragma_foreign_key_list(?)', [name])).map((r) => r.table),
    );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of parents.get(name) ?? []) if (parent !== name) visit(parent, path);
    placed.add(name);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

async function copyTable(src: Sql, dst: Sql, table: string, columns: string[]): Promise<number> {
  const perInsert = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
  const list = columns.map(quote).join(', ');
  let after = -Infinity;
  let total = 0;
  for (;;) {
    // Pages by rowid: every control table has one, and a page never re-reads a row.
    const page = await src.all<Record<string, unknown>>(
      `SELECT rowid AS "__rowid", ${list} FROM ${quote(table)} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      [after === -Infinity ? Number.MIN_SAFE_INTEGER : after, perInsert],
    );
    if (page.length === 0) return total;
    const values: unknown[] = [];
    const tuples = page.map((row) => {
      for (const c of columns) values.push(row[c] ?? null);
      return `(${columns.map(() => '?').join(', ')})`;
    });
    await dst.run(`INSERT INTO ${quote(table)} (${list}) VALUES ${tuples.join(', ')}`, values);
    total += page.length;
    after = page[page.length - 1]!.__rowid as number;
  }
}

/** Identity columns continue after the copied ids, so the next insert does not collide. */
async function resetIdentities(dst: Sql): Promise<void> {
  const identities = await dst.all<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
  );
  for (const { table_name: table, column_name: column } of identities) {
    await dst.get(
      `SELECT setval(pg_get_serial_sequence(CAST(? AS TEXT), CAST(? AS TEXT)), COALESCE(max(${quote(column)}), 0) + 1, false) AS v FROM ${quote(table)}`,
      [table, column],
    );
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
