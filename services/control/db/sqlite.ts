import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import type { Params, RunResult, Sql, TransactionOptions } from './sql.ts';

/**
 * The SQLite control plane: one better-sqlite3 connection per process, in WAL mode so the
 * API reads while an ingest or the CLI commits. Statements run synchronously; the promises
 * only give both implementations one shape.
 *
 * A transaction's callback awaits between its statements, so others must not slip in: on its
 * own connection, any statement would land inside it (and be rolled back with it), so every
 * statement of that handle waits until it ends; on another connection to the same file in the
 * same process, a write would wait for the lock synchronously (busy_timeout), blocking the event
 * loop the transaction needs to commit, so writes and transactions wait too. Reads on another
 * connection go ahead, as WAL allows. The transaction's own handle runs at once.
 */

export interface SqliteOptions {
  /** Milliseconds a writer waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Whether a statement on the outer handle inside its own transaction is refused
   * (NestedHandleError) instead of waiting for ever. Default: on; openControlPlane turns it off
   * when NODE_ENV=production.
   * The check needs an AsyncLocalStorage, and once one runs Node 20 calls a hook on every promise
   * of the process: about 5% of the npm start stack's CPU per ingested row in a profile. The
   * misuse is a programming error the tests (and development) catch; production skips the hook.
   */
  checkNesting?: boolean;
}

export function openSqlite(path: string, options: SqliteOptions = {}): SqliteSql {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  try {
    // busy_timeout first: switching to WAL itself needs a lock another process may hold.
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // WAL lets readers (the API) proceed while a writer (an ingest, the CLI) commits.
    toWal(db, options.busyTimeoutMs ?? 5000);
    // NORMAL is durable across application crashes in WAL mode; only power loss can drop the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // The portable spelling of "now" (sql.ts); strftime's %f gives the same milliseconds.
    db.function('now_iso', () => new Date().toISOString());
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteSql(db, options.checkNesting ?? true);
}

/**
 * Switches the file to WAL (kept in the file: once done, every later open finds it so). Two
 * processes opening a new file at once can get SQLITE_BUSY from the switch at once, without
 * SQLite calling its busy handler (one holds the lock the other's switch needs while waiting for
 * its own), so the switch is tried again until the busy timeout has passed.
 */
function toWal(db: Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      // Only while opening: a short synchronous pause, as busy_timeout itself would wait.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Statement<unknown[], unknown>>();
  /** The file's transaction gate in this process, shared by every handle on the file. */
  private readonly gate: Gate;
  private readonly tx: Sql;
  private readonly file: string | null;

  constructor(
    readonly db: Database,
    private readonly checkNesting = true,
  ) {
    // Two handles on one file in one process (a test beside its runtime, a CLI helper) would
    // otherwise deadlock: the second one's BEGIN IMMEDIATE waits for the lock synchronously
    // (busy_timeout), blocking the event loop that the first one's transaction needs to commit.
    const file = db.memory ? null : db.name;
    let gate = file === null ? undefined : gates.get(file);
    if (!gate) {
      gate = { open: null, owner: null, handles: 0 };
      if (file !== null) gates.set(file, gate);
    }
    gate.handles += 1;
    this.gate = gate;
    this.file = file;
    this.tx = {
      dialect: 'sqlite',
      all: async <R>(text: string, params?: Params) => this.allNow<R>(text, params),
      get: async <R>(text: string, params?: Params) => this.getNow<R>(text, params),
      run: async (text: string, params?: Params) => this.runNow(text, params),
      exec: async (text: string) => void this.db.exec(text),
      transaction: <T>(fn: (tx: Sql) => Promise<T>) => fn(this.tx),
      snapshot: <T>(fn: (tx: Sql) => Promise<T>) => fn(this.tx),
      close: async () => undefined,
    };
  }

  async all<R>(text: string, params?: Params): Promise<R[]> {
    // A read waits only for its own connection's transaction: WAL lets it read beside another's.
    while (this.gate.open && this.gate.owner === this) await this.turn();
    return this.allNow<R>(text, params);
  }

  async get<R>(text: string, params?: Params): Promise<R | undefined> {
    while (this.gate.open && this.gate.owner === this) await this.turn();
    return this.getNow<R>(text, params);
  }

  async run(text: string, params?: Params): Promise<RunResult> {
    while (this.gate.open) await this.turn();
    return this.runNow(text, params);
  }

  async exec(text: string): Promise<void> {
    while (this.gate.open) await this.turn();
    this.db.exec(text);
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    // SQLite has one writer per file whatever the lock name: BEGIN IMMEDIATE takes it.
    return this.holdingGate(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await this.runInside(fn);
        this.db.exec('COMMIT');
        return out;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  async snapshot<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    // Its own handle's statements would land inside it (and a write there would take the lock),
    // so it holds the gate as a transaction does; other connections' writers go ahead (WAL).
    return this.holdingGate(async () => {
      // Deferred: the snapshot starts with the first read and never asks for the write lock;
      // query_only turns a write inside it into an error instead of a lock request.
      this.db.exec('BEGIN DEFERRED');
      this.db.pragma('query_only = ON');
      try {
        return await this.runInside(fn);
      } finally {
        this.db.pragma('query_only = OFF');
        if (this.db.inTransaction) this.db.exec('COMMIT');
      }
    });
  }

  /** body while this handle owns the gate: the handle's other statements wait their turn. */
  private async holdingGate<T>(body: () => Promise<T>): Promise<T> {
    while (this.gate.open) await this.turn();
    let release!: () => void;
    this.gate.open = new Promise((resolve) => (release = resolve));
    this.gate.owner = this;
    try {
      return await body();
    } finally {
      this.gate.open = null;
      this.gate.owner = null;
      release();
    }
  }

  private runInside<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.checkNesting ? inside.run(this, () => fn(this.tx)) : fn(this.tx);
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.db.close();
    this.gate.handles -= 1;
    if (this.gate.handles === 0 && this.file !== null) gates.delete(this.file);
  }

  /**
   * What a statement or transaction waits on while another transaction is open. Callers loop
   * `while (this.gate.open) await this.turn()` and act in the same synchronous step as the last
   * check: when a transaction ends, every waiter wakes, and only the first may go; an `await`
   * between the check and the statement (an async helper) let a second waiter run its
   * statement inside the first one's new transaction, or BEGIN inside it.
   */
  private turn(): Promise<void> {
    // A handle on the file used inside the open transaction's callback would wait for it forever.
    const owner = this.checkNesting ? inside.getStore() : undefined;
    if (owner !== undefined && owner.gate === this.gate) throw new NestedHandleError();
    return this.gate.open!;
  }

  private statement(text: string): Statement<unknown[], unknown> {
    let found = this.statements.get(text);
    if (!found) {
      found = this.db.prepare(text);
      this.statements.set(text, found);
    }
    return found;
  }

  private allNow<R>(text: string, params?: Params): R[] {
    return bind(this.statement(text), params, 'all') as R[];
  }

  private getNow<R>(text: string, params?: Params): R | undefined {
    return bind(this.statement(text), params, 'get') as R | undefined;
  }

  private runNow(text: string, params?: Params): RunResult {
    const result = bind(this.statement(text), params, 'run') as { changes: number };
    return { changes: result.changes };
  }
}

interface Gate {
  /** Settles when the open transaction (of any handle on the file) ends; null when none is open. */
  open: Promise<void> | null;
  /** The handle whose transaction is open. */
  owner: SqliteSql | null;
  handles: number;
}

const gates = new Map<string, Gate>();

/** Which handle's transaction callback is running (only read while one is open). */
const inside = new AsyncLocalStorage<SqliteSql>();

/** A programming error: statements inside a transaction go through its `tx`. */
export class NestedHandleError extends Error {
  override name = 'NestedHandleError';
  constructor() {
    super("a statement inside a transaction used the outer handle; pass the transaction's tx");
  }
}

function bind(statement: Statement<unknown[], unknown>, params: Params | undefined, how: 'all' | 'get' | 'run'): unknown {
  if (params === undefined) return statement[how]();
  if (Array.isArray(params)) return statement[how](...(params as unknown[]));
  return statement[how](params);
}
