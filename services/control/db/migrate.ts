import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Dialect, Sql } from './sql.ts';

/**
 * Versioned, forward-only migrations: services/control/db/migrations/NNN-name.sql for
 * SQLite and migrations/postgres/NNN-name.sql for PostgreSQL (the same versions and
 * names; a unit test keeps them in step), applied in version order, each in its own
 * write transaction and recorded with its checksum in schema_migrations. A file never
 * changes once applied: to alter the schema, add the next NNN to both folders. Files
 * hold plain SQL without BEGIN/COMMIT.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    readonly code: 'checksum_mismatch' | 'unknown_version' | 'bad_file_name' | 'duplicate_version',
    message: string,
  ) {
    super(message);
  }
}

const defaultDir = new URL('./migrations/', import.meta.url);
const postgresDir = new URL('./migrations/postgres/', import.meta.url);
const fileName = /^(\d{3})-([a-z0-9][a-z0-9-]*)\.sql$/;

/** Reads and orders the migration files; pure apart from reading the folder. */
export function loadMigrations(dir: URL | string = defaultDir): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    const match = fileName.exec(file);
    if (!match) throw new MigrationError('bad_file_name', `migration file ${file}: name must look like 001-some-name.sql`);
    // Line endings are normalised so a checkout with CRLF does not look like an edit.
    const sql = readFileSync(new URL(file, dirUrl(dir)), 'utf8').replace(/\r\n/g, '\n');
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version))
      throw new MigrationError('duplicate_version', `migration version ${match[1]} is used by two files`);
    migrations.push({ version, name: match[2]!, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

function dirUrl(dir: URL | string): URL {
  if (dir instanceof URL) return dir;
  return pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`);
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

const SCHEMA_MIGRATIONS: Record<Dialect, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    checksum TEXT NOT NULL
  ) STRICT`,
  postgres: `CREATE TABLE IF NOT EXISTS schema_migrations (
    version BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    checksum TEXT NOT NULL
  )`,
};

/** Each dialect's own files: the same versions and names, the SQL its engine speaks. */
export function migrationsFor(dialect: Dialect): Migration[] {
  return loadMigrations(dialect === 'sqlite' ? defaultDir : postgresDir);
}

/**
 * Applies pending migrations and returns the versions applied by this call (empty
 * when the schema is current). Throws MigrationError when an applied migration's
 * file was edited or is missing, rather than guessing which schema is right.
 */
export async function migrate(sql: Sql, migrations: Migration[] = migrationsFor(sql.dialect)): Promise<number[]> {
  // Two processes starting at once both create the table; PostgreSQL's IF NOT EXISTS is not
  // safe against a concurrent creator, so the creation runs under the control plane's lock.
  await sql.transaction((tx) => tx.exec(SCHEMA_MIGRATIONS[sql.dialect]));
  const applied = new Map((await sql.all<AppliedRow>('SELECT version, name, checksum FROM schema_migrations')).map((r) => [r.version, r]));
  verify(applied, migrations);

  const done: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    // Another process may have applied it since we looked: check again under the
    // write lock, so two starts never apply one file twice.
    const ran = await sql.transaction(async (tx) => {
      const row = await tx.get<AppliedRow>('SELECT version, name, checksum FROM schema_migrations WHERE version = ?', [m.version]);
      if (row) {
        checkUnchanged(row, m);
        return false;
      }
      await tx.exec(m.sql);
      await tx.run('INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)', [m.version, m.name, m.checksum]);
      return true;
    });
    if (ran) done.push(m.version);
  }
  return done;
}

function verify(applied: Map<number, AppliedRow>, migrations: Migration[]): void {
  const known = new Map(migrations.map((m) => [m.version, m]));
  for (const row of applied.values()) {
    const m = known.get(row.version);
    if (!m)
      throw new MigrationError(
        'unknown_version',
        `database has migration ${pad(row.version)}-${row.name} that this build does not know; run a newer build`,
      );
    checkUnchanged(row, m);
  }
}

function checkUnchanged(row: AppliedRow, m: Migration): void {
  if (m.checksum !== row.checksum)
    throw new MigrationError(
      'checksum_mismatch',
      `migration ${pad(m.version)}-${m.name} was edited after it was applied (checksum ${row.checksum.slice(0, 12)} in the database, ${m.checksum.slice(0, 12)} on disk); restore the file and add a new migration instead`,
    );
}

const pad = (v: number) => String(v).padStart(3, '0');

export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: string;
}

/** The migrations recorded as applied, oldest first. */
export function listAppliedMigrations(sql: Sql): Promise<AppliedMigration[]> {
  return sql.all<AppliedMigration>('SELECT version, name, applied_at AS "appliedAt" FROM schema_migrations ORDER BY version');
}
