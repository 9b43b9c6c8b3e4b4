import { createHash } from 'node:crypto';
import pg from 'pg';
import { type Compiled, compilePlaceholders, orderValues } from './placeholders.ts';
import type { Params, RunResult, Sql, TransactionOptions } from './sql.ts';

/**
 * The PostgreSQL control plane: a pool shared by the process's requests. Statements are
 * written with SQLite's placeholders (placeholders.ts) and sent as named prepared statements,
 * so a connection plans each one once.
 *
 * A write transaction first takes a transaction-scoped advisory lock on its lock name: two
 * writers of one name run one after the other, as every SQLite writer does under BEGIN
 * IMMEDIATE, and read committed data after the lock is theirs (each statement of READ
 * COMMITTED sees what committed before it). BEGIN and the lock go in one round trip.
 */

export interface PostgresOptions {
  /** Connections in the pool (each API host holds its own pool). */
  max?: number;
}

/** Numbers as JS numbers, as better-sqlite3 gives them: counts (bigint) and sums (numeric). */
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

const DEFAULT_LOCK = 'control-plane';

export function openPostgres(url: string, options: PostgresOptions = {}): PostgresSql {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  // A connection lost while idle must not crash the process; the next query gets a new one.
  pool.on('error', () => undefined);
  return new PostgresSql(pool);
}

interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

export class PostgresSql implements Sql {
  readonly dialect = 'postgres' as const;
  private readonly compiled = new Map<string, Compiled & { name: string }>();
  private closed = false;

  constructor(readonly pool: pg.Pool) {}

  all<R>(text: string, params?: Params): Promise<R[]> {
    return this.rows<R>(this.pool, text, params);
  }

  async get<R>(text: string, params?: Params): Promise<R | undefined> {
    return (await this.rows<R>(this.pool, text, params))[0];
  }

  async run(text: string, params?: Params): Promise<RunResult> {
    const result = await this.send(this.pool, text, params);
    return { changes: result.rowCount ?? 0 };
  }

  async exec(text: string): Promise<void> {
    await this.pool.query(text);
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.within(`BEGIN; SELECT pg_advisory_xact_lock(${lockKey(options.lock ?? DEFAULT_LOCK)})`, fn);
  }

  async snapshot<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    // One snapshot for every statement, no advisory lock: writers never wait for it, nor it for them.
    return this.within('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY', fn);
  }

  /** fn on one connection between `begin` and COMMIT. */
  private async within<T>(begin: string, fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query(begin);
      const out = await fn(this.handle(client));
      await client.query('COMMIT');
      return out;
    } catch (err) {
      // Whatever failed (the lock's wait, a statement, fn's own error, COMMIT), the connection
      // goes back with no transaction open: a failed lock wait leaves BEGIN's transaction
      // aborted, and the next borrower would get "current transaction is aborted". ROLLBACK
      // with none open only warns. Only a connection that cannot even roll back (lost) is
      // dropped: an error of fn's own says nothing about the connection.
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** The statements of one open transaction, on its own connection. */
  private handle(client: pg.PoolClient): Sql {
    const tx: Sql = {
      dialect: 'postgres',
      all: <R>(text: string, params?: Params) => this.rows<R>(client, text, params),
      get: async <R>(text: string, params?: Params) => (await this.rows<R>(client, text, params))[0],
      run: async (text: string, params?: Params) => ({ changes: (await this.send(client, text, params)).rowCount ?? 0 }),
      exec: async (text: string) => void (await client.query(text)),
      transaction: <T>(fn: (inner: Sql) => Promise<T>) => fn(tx),
      snapshot: <T>(fn: (inner: Sql) => Promise<T>) => fn(tx),
      close: async () => undefined,
    };
    return tx;
  }

  private async rows<R>(on: Queryable, text: string, params?: Params): Promise<R[]> {
    return (await this.send(on, text, params)).rows as R[];
  }

  private send(on: Queryable, text: string, params?: Params): Promise<pg.QueryResult> {
    let found = this.compiled.get(text);
    if (!found) {
      const compiled = compilePlaceholders(text);
      found = { ...compiled, name: `s${createHash('sha1').update(compiled.text).digest('hex').slice(0, 20)}` };
      this.compiled.set(text, found);
    }
    return on.query({ name: found.name, text: found.text, values: orderValues(found, params) });
  }
}

/** A lock name as the signed 64-bit key pg_advisory_xact_lock takes. */
function lockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}
