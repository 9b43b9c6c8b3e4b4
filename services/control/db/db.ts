import { migrate } from './migrate.ts';
import { openPostgres } from './postgres.ts';
import type { Sql } from './sql.ts';
import { openSqlite } from './sqlite.ts';
import { claimStack } from './stack.ts';

export interface DatabaseOptions {
  /** Milliseconds a SQLite writer waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Told which migration versions this open applied (empty when current), e.g. to log them. */
  onMigrated?: (versions: number[]) => void;
  /**
   * The stack (INDEX_PREFIX) opening it: the first one claims the database, any other is refused.
   * Every process of a stack passes it; only tests of the control tables alone leave it out.
   */
  indexPrefix?: string;
  /** PostgreSQL: connections in this process's pool. */
  poolSize?: number;
}

/** Where the control plane lives: PostgreSQL when a URL is given, else the SQLite file. */
export interface ControlTarget {
  DATABASE_URL?: string | undefined;
  DATABASE_PATH: string;
  /** production skips SQLite's nesting check (sqlite.ts); a bare path keeps it. */
  NODE_ENV?: string;
}

/**
 * Opens (creating if needed) the control-plane database and brings its schema up to date; the
 * stack opening it claims it. Its rows (the county directory) are the rooms' business:
 * openControlPlane (../control-plane.ts) seeds them on top of this.
 */
export async function openDatabase(target: ControlTarget | string, options: DatabaseOptions = {}): Promise<Sql> {
  const where = typeof target === 'string' ? { DATABASE_PATH: target } : target;
  const sql: Sql = where.DATABASE_URL
    ? openPostgres(where.DATABASE_URL, { max: options.poolSize })
    : openSqlite(where.DATABASE_PATH, { busyTimeoutMs: options.busyTimeoutMs, checkNesting: where.NODE_ENV !== 'production' });
  try {
    const applied = await migrate(sql);
    options.onMigrated?.(applied);
    if (options.indexPrefix !== undefined) await claimStack(sql, options.indexPrefix, describe(where));
    return sql;
  } catch (err) {
    await sql.close();
    throw err;
  }
}

/** Where a control plane is, for messages: the file, or the database URL without its password. */
export function describe(where: ControlTarget): string {
  if (!where.DATABASE_URL) return where.DATABASE_PATH;
  const url = new URL(where.DATABASE_URL);
  if (url.password) url.password = '***';
  return url.toString();
}
