import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Registry } from '../domain/registry.ts';
import { seedCounties } from './counties.ts';
import { migrate } from './migrate.ts';
import { claimStack } from './stack.ts';

export type { Database };

export interface OpenOptions {
  /** The county facts and sale channels to seed from, loaded once by the process (loadRegistry). */
  registry: Registry;
  /** Milliseconds a writer waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Told which migration versions this open applied (empty when current), e.g. to log them. */
  onMigrated?: (versions: number[]) => void;
  /**
   * The stack (INDEX_PREFIX) opening it: the first one claims the database, any other is refused.
   * Every process of a stack passes it; only tests of the control tables alone leave it out.
   */
  indexPrefix?: string;
}

/**
 * Opens (creating if needed) the control-plane database, brings its schema up to
 * date and upserts the county directory. The server, the worker and the CLI each
 * open their own handle on the same file and pass it down; there is no shared one.
 */
export function openDatabase(path: string, options: OpenOptions): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  try {
    // busy_timeout first: switching to WAL itself needs a lock another process may hold.
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // WAL lets readers (the API) proceed while a writer (an ingest, the CLI) commits.
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across application crashes in WAL mode; only power loss can drop the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const applied = migrate(db);
    options.onMigrated?.(applied);
    if (options.indexPrefix !== undefined) claimStack(db, options.indexPrefix);
    seedCounties(db, options.registry);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Closes the handle; safe to call twice (shutdown paths often do). */
export function closeDatabase(db: Database): void {
  if (db.open) db.close();
}
