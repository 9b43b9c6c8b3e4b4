import type { Registry } from '../domain/registry.ts';
import { recomputeBalances, storedBalances } from './billing/balances.ts';
import { CopyError, copyTables, type TableCopy } from './db/copy.ts';
import { type ControlTarget, type DatabaseOptions, openDatabase } from './db/db.ts';
import type { Sql } from './db/sql.ts';
import type { SqliteSql } from './db/sqlite.ts';
import { seedCounties } from './ingest/counties.ts';

/**
 * The control plane as a whole, above its rooms: db/ knows the database and its migrations but
 * no table's meaning, so what needs both (seeding the county directory on open, checking the
 * copied balances against both ledgers) is put together here. Nothing under control/ imports
 * this file; the processes, the CLI and the tests do.
 */

export interface OpenOptions extends DatabaseOptions {
  /** The county facts and sale channels to seed from, loaded once by the process (loadRegistry). */
  registry: Registry;
}

/**
 * Opens (creating if needed) the control-plane database, brings its schema up to date and
 * upserts the county directory. The server, the worker and the CLI each open their own
 * handle (a SQLite connection or a PostgreSQL pool) and pass it down; there is no shared one.
 */
export async function openControlPlane(target: ControlTarget | string, options: OpenOptions): Promise<Sql> {
  const sql = await openDatabase(target, options);
  try {
    await seedCounties(sql, options.registry);
    return sql;
  } catch (err) {
    await sql.close();
    throw err;
  }
}

export interface CopyReport {
  tables: TableCopy[];
  /** Clients whose stored balances were compared with the ledger's on both sides. */
  clientsVerified: number;
}

/**
 * `taxcert control-plane copy`: every table into an empty PostgreSQL database (db/copy.ts),
 * then every client's balances equal on both sides and equal to what the target's ledger
 * alone gives.
 */
export async function copyControlPlane(from: SqliteSql, to: Sql, onTable?: (t: TableCopy) => void): Promise<CopyReport> {
  const tables = await copyTables(from, to, onTable);
  const clients = await from.all<{ id: string }>('SELECT id FROM clients ORDER BY id');
  for (const { id } of clients) {
    const source = JSON.stringify(await storedBalances(from, id));
    const stored = JSON.stringify(await storedBalances(to, id));
    const recomputed = JSON.stringify(await recomputeBalances(to, id));
    if (stored !== source) throw new CopyError('verify_failed', `client ${id}: the target's balances differ from the source's`);
    if (recomputed !== stored) throw new CopyError('verify_failed', `client ${id}: the target's balances differ from its own ledger`);
  }
  return { tables, clientsVerified: clients.length };
}
