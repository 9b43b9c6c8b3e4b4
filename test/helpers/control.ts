import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Registry } from '../../services/domain/registry.ts';
import { type ControlTarget, describe } from '../../services/control/db/db.ts';
import { openControlPlane } from '../../services/control/control-plane.ts';
import type { Sql } from '../../services/control/db/sql.ts';
import { loadRegistry } from '../../services/domain/registry.ts';

/**
 * The control plane a test runs on. Unset TEST_DATABASE_URL: SQLite (a file or :memory:).
 * TEST_DATABASE_URL=postgres://user@host:port/admin-db: every test file (every control plane
 * it opens) gets a PostgreSQL database of its own, created here and dropped when closed, so
 * the whole control-plane suite runs against both implementations: their answers must agree.
 */
export const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

/**
 * The PostgreSQL server of tests that compare both engines whatever TEST_DATABASE_URL says
 * (schema parity, the Sql contract): TEST_DATABASE_URL, else the local server CI starts.
 */
export const postgresServerUrl = (): string => testDatabaseUrl() ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Creates an empty database on the TEST_DATABASE_URL server (or `admin`, a URL of an existing
 * database on the server to use); returns its URL and how to drop it.
 */
export function createTestDatabase(label: string, admin: string | undefined = testDatabaseUrl()): { url: string; drop: () => void } {
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `t_${label
    .replace(/[^a-z0-9]+/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  psql(admin, `CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    drop: () => {
      if (dropped) return;
      dropped = true;
      psql(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

// Synchronous on purpose: testContext builds its Config synchronously, and a test file
// creates its database once.
function psql(url: string, command: string): void {
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface TestControlOptions {
  /** SQLite only: the file (default :memory:). */
  path?: string;
  registry?: Registry;
  indexPrefix?: string;
  label?: string;
}

/** A migrated, seeded control plane for a test; close() also drops its PostgreSQL database. */
export async function openTestControl(options: TestControlOptions = {}): Promise<Sql> {
  const registry = options.registry ?? loadRegistry();
  if (!testDatabaseUrl()) return openControlPlane(options.path ?? ':memory:', { registry, indexPrefix: options.indexPrefix });
  const db = createTestDatabase(options.label ?? 'control');
  const sql = await openControlPlane(
    { DATABASE_URL: db.url, DATABASE_PATH: '' },
    { registry, indexPrefix: options.indexPrefix, poolSize: 4 },
  );
  const close = sql.close.bind(sql);
  return Object.assign(sql, {
    close: async () => {
      await close();
      db.drop();
    },
  });
}

/**
 * Where a test's control plane goes: a SQLite file at `path`, or under TEST_DATABASE_URL a new
 * PostgreSQL database (drop() removes it). For tests that open one target several times.
 */
export function testTarget(path: string, label = 'target'): { target: ControlTarget; where: string; drop: () => void } {
  if (!testDatabaseUrl()) return { target: { DATABASE_PATH: path }, where: path, drop: () => undefined };
  const db = createTestDatabase(label);
  const target = { DATABASE_URL: db.url, DATABASE_PATH: path };
  return { target, where: describe(target), drop: db.drop };
}
