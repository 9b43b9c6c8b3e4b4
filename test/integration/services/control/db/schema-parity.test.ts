// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openControlPlane } from '../../../../../services/control/control-plane.ts';
import { loadMigrations, migrate } from '../../../../../services/control/db/migrate.ts';
import { openPostgres } from '../../../../../services/control/db/postgres.ts';
import type { Dialect, Sql } from '../../../../../services/control/db/sql.ts';
import { openSqlite } from '../../../../../services/control/db/sqlite.ts';
import { createTestDatabase, postgresServerUrl } from '../../../../helpers/control.ts';
import { registry } from '../../../../helpers/registry.ts';

/**
 * The migrations must end in one schema on both engines: the control modules write each
 * statement once for both. The released ones are two folders
 * (services/control/db/migrations and its postgres/ twin); from 025 on each is one TypeScript
 * definition rendered per engine, proved here with a fixture 099 applied after them. A fresh
 * SQLite and a fresh PostgreSQL database are read back and compared table by table; every
 * expectation is keyed by table name, so a failure names what differs.
 */

let sqlite: Sql;
let postgres: Sql;
let drop: () => void = () => undefined;

beforeAll(async () => {
  sqlite = await openControlPlane(':memory:', { registry });
  const db = createTestDatabase('parity', postgresServerUrl());
  drop = db.drop;
  postgres = await openControlPlane({ DATABASE_URL: db.url, DATABASE_PATH: '' }, { registry, poolSize: 2 });
});

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  drop();
});

interface Column {
  name: string;
  /** The PostgreSQL type the SQLite declared type maps to (INTEGER → bigint, ...). */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

interface Index {
  columns: string;
  unique: boolean;
  partial: boolean;
}

/** What one engine's schema holds, per table. */
interface Schema {
  tables: string[];
  columns: Record<string, Column[]>;
  /** Primary keys and unique constraints, as their column lists ("a,b"), sorted. */
  uniqueKeys: Record<string, string[]>;
  /** Indexes made by CREATE INDEX, by name. */
  indexes: Record<string, Record<string, Index>>;
}

const SQLITE_TYPES: Record<string, string> = { INTEGER: 'bigint', REAL: 'double precision', BLOB: 'bytea', TEXT: 'text' };

async function sqliteSchema(sql: Sql): Promise<Schema> {
  const tables = (
    await sql.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
  ).map((t) => t.name);
  const schema: Schema = { tables, columns: {}, uniqueKeys: {}, indexes: {} };
  for (const table of tables) {
    const info = await sql.all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
      'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid',
      [table],
    );
    schema.columns[table] = info.map((c) => ({
      name: c.name,
      type: SQLITE_TYPES[c.type] ?? `unmapped ${c.type}`,
      // PostgreSQL makes every primary-key column NOT NULL; SQLite only an INTEGER PRIMARY KEY.
      notNull: c.notnull === 1 || c.pk > 0,
      hasDefault: c.dflt_value !== null,
    }));
    const keys = new Set<string>();
    const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (pk.length > 0) keys.add(pk.map((c) => c.name).join(','));
    const indexes: Record<string, Index> = {};
    for (const ix of await sql.all<{ name: string; unique: number; origin: string; partial: number }>(
      'SELECT name, "unique", origin, partial FROM pragma_index_list(?)',
      [table],
    )) {
      const columns = (await sql.all<{ name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [ix.name]))
        .map((c) => c.name)
        .join(',');
      if (ix.origin === 'c') indexes[ix.name] = { columns, unique: ix.unique === 1, partial: ix.partial === 1 };
      else keys.add(columns);
    }
    schema.uniqueKeys[table] = [...keys].sort();
    schema.indexes[table] = indexes;
  }
  return schema;
}

async function postgresSchema(sql: Sql): Promise<Schema> {
  const tables = (
    await sql.all<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    )
  ).map((t) => t.name);
  const schema: Schema = { tables, columns: {}, uniqueKeys: {}, indexes: {} };
  for (const table of tables) {
    const info = await sql.all<{ name: string; type: string; nullable: string; dflt: string | null }>(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position`,
      [table],
    );
    schema.columns[table] = info.map((c) => ({ name: c.name, type: c.type, notNull: c.nullable === 'NO', hasDefault: c.dflt !== null }));
    const keys = new Set<string>();
    const indexes: Record<string, Index> = {};
    for (const ix of await sql.all<{ name: string; columns: string; unique: number; partial: number; constraint: number }>(
      `SELECT ic.relname AS name,
              (SELECT string_agg(pg_get_indexdef(ix.indexrelid, k, true), ',' ORDER BY k) FROM generate_series(1, ix.indnatts) AS k) AS columns,
              CASE WHEN ix.indisunique THEN 1 ELSE 0 END AS "unique",
              CASE WHEN ix.indpred IS NULL THEN 0 ELSE 1 END AS partial,
              (SELECT count(*) FROM pg_constraint c WHERE c.conindid = ix.indexrelid) AS "constraint"
         FROM pg_index ix
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_class ic ON ic.oid = ix.indexrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'public' AND t.relname = ?`,
      [table],
    )) {
      if (ix.constraint > 0) keys.add(ix.columns);
      else indexes[ix.name] = { columns: ix.columns, unique: ix.unique === 1, partial: ix.partial === 1 };
    }
    schema.uniqueKeys[table] = [...keys].sort();
    schema.indexes[table] = indexes;
  }
  return schema;
}

/** Columns whose values are the moment of the write or the file's own hash, not seed data. */
const UNSEEDED = new Set(['created_at', 'updated_at', 'applied_at', 'claimed_at', 'checksum']);

/** Every table's rows (only tables that have any), without the columns above. */
async function rows(sql: Sql, tables: string[]): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of tables) {
    const all = await sql.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY 1, 2`);
    if (all.length === 0) continue;
    out[table] = all.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !UNSEEDED.has(column))));
  }
  return out;
}

describe('SQLite and PostgreSQL control planes after all migrations', () => {
  let lite: Schema;
  let pg: Schema;
  beforeAll(async () => {
    lite = await sqliteSchema(sqlite);
    pg = await postgresSchema(postgres);
  });

  it('have the same tables', () => {
    expect(lite.tables).toContain('counties');
    expect(lite.tables).toContain('webhook_dispatch');
    expect(pg.tables).toEqual(lite.tables);
  });

  it('give each table the same columns, in the same order, of matching types, nullability and defaults', () => {
    expect(Object.keys(lite.columns).length).toBeGreaterThan(20);
    expect(pg.columns).toEqual(lite.columns);
  });

  it('have the same primary keys and unique constraints (the ON CONFLICT targets)', () => {
    expect(lite.uniqueKeys.quarantine).toEqual(['id', 'run_id,file_sha256,line']);
    expect(pg.uniqueKeys).toEqual(lite.uniqueKeys);
  });

  it('have the same named indexes on the same columns', () => {
    expect(lite.indexes.credit_ledger?.credit_ledger_overage_day).toEqual({ columns: 'period,client_id', unique: false, partial: true });
    expect(pg.indexes).toEqual(lite.indexes);
  });

  it('seed the same rows: plans, dataset state, the county directory, the dispatch cursor, the migrations', async () => {
    const liteRows = await rows(sqlite, lite.tables);
    const pgRows = await rows(postgres, pg.tables);
    expect(liteRows.plans).toHaveLength(7);
    expect(liteRows.counties).toHaveLength(67);
    expect(liteRows.dataset_state).toHaveLength(5);
    expect(liteRows.webhook_dispatch).toEqual([{ id: 1, last_event_id: 0 }]);
    expect(Object.keys(pgRows).sort()).toEqual(Object.keys(liteRows).sort());
    for (const table of Object.keys(liteRows)) expect({ [table]: pgRows[table] }).toEqual({ [table]: liteRows[table] });
  });
});

describe('a TypeScript migration after the released ones (test/helpers/migrations/099-every-word.ts)', () => {
  const fixtures = new URL('../../../../helpers/migrations/', import.meta.url);
  const migrations = async (dialect: Dialect) => [...(await loadMigrations(dialect)), ...(await loadMigrations(dialect, fixtures))];
  let lite: Schema;
  let pg: Schema;
  beforeAll(async () => {
    const a = openSqlite(':memory:');
    const db = createTestDatabase('parity_ts', postgresServerUrl());
    const b = openPostgres(db.url, { max: 2 });
    try {
      expect(await migrate(a, await migrations('sqlite'))).toContain(99);
      expect(await migrate(b, await migrations('postgres'))).toContain(99);
      lite = await sqliteSchema(a);
      pg = await postgresSchema(b);
    } finally {
      await a.close();
      await b.close();
      db.drop();
    }
  });

  it('ends in the same schema on both engines, its table included', () => {
    expect(lite.columns.every_words?.map((c) => `${c.name} ${c.type}`)).toEqual([
      'id bigint',
      'client_id text',
      'name text',
      'counties text',
      'matches bigint',
      'min_rate double precision',
      'digest bytea',
      'created_at text',
    ]);
    expect(lite.indexes.every_words).toEqual({
      every_words_client: { columns: 'client_id,created_at', unique: false, partial: false },
    });
    expect(pg).toEqual(lite);
  });
});
