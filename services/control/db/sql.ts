/**
 * The control plane's one interface to its database: every read and write of
 * counties, sources, runs, plans, clients, keys, the ledger, accounts, events and webhooks
 * goes through it, and each control module writes its SQL once against it, so both engines
 * answer alike by construction (see docs/decisions.md, "One control plane, two engines, one
 * text of SQL"). Two implementations: SQLite (better-sqlite3, the embedded default
 * `npm start` uses) and PostgreSQL (`pg`, what a deployment with several API hosts
 * shares), chosen by DATABASE_URL in db.ts.
 *
 * Portable SQL: `?` positional or `@name` named parameters (never both in one statement);
 * ON CONFLICT ... DO NOTHING / DO UPDATE; RETURNING; IS DISTINCT FROM; `now_iso()` for the
 * current time as ISO-8601 UTC text with milliseconds (the one timestamp form the tables
 * store). Where a dialect differs (JSON arrays), the module branches on `dialect`.
 * Numbers come back as JS numbers from both (PostgreSQL's bigint and numeric included).
 */

export type Dialect = 'sqlite' | 'postgres';

/** Positional values for `?`, or an object for `@name` parameters. */
export type Params = readonly unknown[] | Readonly<Record<string, unknown>>;

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement. */
  changes: number;
}

export interface TransactionOptions {
  /**
   * What the transaction serializes on. Every write transaction of one lock runs after the
   * previous one commits, as SQLite's BEGIN IMMEDIATE makes every writer do; PostgreSQL takes
   * an advisory lock on this name, so writers of different names (two clients' charges) run
   * side by side. Default: the whole control plane.
   */
  lock?: string;
}

export interface Sql {
  readonly dialect: Dialect;
  all<R = Record<string, unknown>>(text: string, params?: Params): Promise<R[]>;
  get<R = Record<string, unknown>>(text: string, params?: Params): Promise<R | undefined>;
  run(text: string, params?: Params): Promise<RunResult>;
  /** Several statements without parameters (migrations, DDL). */
  exec(text: string): Promise<void>;
  /**
   * Runs fn's statements in one write transaction: committed when fn resolves, rolled back
   * when it throws. fn awaits only statements of `tx` (no network, no timers): on SQLite the
   * whole process's control plane waits for it. Called on a transaction's own handle, it
   * joins the open transaction.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs fn's reads in one read-only snapshot: every statement sees the same committed state,
   * and no write lock is taken or waited for (SQLite: a deferred transaction, which in WAL mode
   * reads beside a writer of another connection; PostgreSQL: REPEATABLE READ, READ ONLY,
   * without the writers' advisory lock). A write inside it fails. The same rules as transaction
   * for what fn awaits; called on a transaction's own handle, it joins that transaction.
   */
  snapshot<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Closes the handle or pool; safe to call twice. */
  close(): Promise<void>;
}

/** A statement the database refused because a unique or primary key already holds the value. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return (
    e !== null &&
    typeof e === 'object' &&
    (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === '23505')
  );
}

/**
 * `value IN (the elements of a JSON array parameter)`, the one list-valued filter the control
 * queries take. `param` is the placeholder (`?` or `@name`) bound to the array's JSON text, or
 * a column holding one. `elements: 'integer'` for an array of numbers matched against an
 * INTEGER column (ids): PostgreSQL reads the elements as text and compares no bigint with text.
 */
export function inJsonArray(dialect: Dialect, value: string, param: string, elements: 'text' | 'integer' = 'text'): string {
  if (dialect === 'sqlite') return `${value} IN (SELECT value FROM json_each(${param}))`;
  const each = `json_array_elements_text(CAST(${param} AS json))`;
  return `${value} IN (SELECT ${elements === 'integer' ? `CAST(${each} AS BIGINT)` : each})`;
}
