import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type MigrationSource, renderMigration } from './define-migration.ts';
import type { Dialect, Sql } from './sql.ts';

/**
 * Versioned, forward-only migrations, applied in version order, each in its own write
 * transaction and recorded with its checksum in schema_migrations. Two kinds live in
 * services/control/db/migrations/:
 * - 001 to 024, released as two SQL files: NNN-name.sql for SQLite and postgres/NNN-name.sql
 *   for PostgreSQL (the same versions and names; a test keeps them in step). Deployments hold
 *   their checksums, so these files never change.
 * - 025 on: one NNN-name.ts whose default export renders the SQL for either engine
 *   (define-migration.ts); its checksum is that of the SQL it renders for the engine.
 * A migration never changes once applied: to alter the schema, add the next NNN. Migrations
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
    readonly code: 'checksum_mismatch' | 'unknown_version' | 'bad_file_name' | 'duplicate_version' | 'bad_definition',
    message: string,
  ) {
    super(message);
  }
}

const migrationsDir = new URL('./migrations/', import.meta.url);
const fileName = /^(\d{3})-([a-z0-9][a-z0-9-]*)\.(sql|ts)$/;

/**
 * The migrations one engine runs, in version order: the engine's own .sql files (dir for
 * SQLite, dir/postgres for PostgreSQL) and every .ts definition rendered for it. Pure apart
 * from reading the folder and importing the definitions.
 */
export async function loadMigrations(dialect: Dialect, dir: URL | string = migrationsDir): Promise<Migration[]> {
  const root = dirUrl(dir);
  const sqlDir = dialect === 'sqlite' ? root : new URL('postgres/', root);
  const files = [
    ...(existsSync(sqlDir)
      ? readdirSync(sqlDir)
          .filter((f) => f.endsWith('.sql'))
          .map((f) => new URL(f, sqlDir))
      : []),
    ...readdirSync(root)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => new URL(f, root)),
  ];
  const migrations: Migration[] = [];
  for (const file of files) {
    const base = file.pathname.slice(file.pathname.lastIndexOf('/') + 1);
    const match = fileName.exec(base);
    if (!match)
      throw new MigrationError('bad_file_name', `migration file ${base}: name must look like 001-some-name.sql, or 025-some-name.ts`);
    const sql = match[3] === 'sql' ? readFileSync(file, 'utf8') : await render(file, base, dialect);
    // Line endings are normalised so a checkout with CRLF does not look like an edit.
    const text = sql.replace(/\r\n/g, '\n');
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version))
      throw new MigrationError('duplicate_version', `migration version ${match[1]} is used by two files`);
    migrations.push({ version, name: match[2]!, sql: text, checksum: createHash('sha256').update(text).digest('hex') });
  }
  return migrations.sort((a, b) => a.version - b.version);
}

async function render(file: URL, base: string, dialect: Dialect): Promise<string> {
  const source = ((await import(file.href)) as { default?: unknown }).default;
  if (typeof source !== 'function')
    throw new MigrationError('bad_definition', `migration file ${base}: its default export must be defineMigration((words) => sql)`);
  const sql = renderMigration(source as MigrationSource, dialect);
  if (typeof sql !== 'string')
    throw new MigrationError('bad_definition', `migration file ${base}: its definition must return the SQL text`);
  return sql;
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

/**
 * Applies pending migrations and returns the versions applied by this call (empty
 * when the schema is current). Throws MigrationError when an applied migration's
 * file was edited or is missing, rather than guessing which schema is right.
 */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<number[]> {
  const wanted = migrations ?? (await loadMigrations(sql.dialect));
  // Two processes starting at once both create the table; PostgreSQL's IF NOT EXISTS is not
  // safe against a concurrent creator, so the creation runs under the control plane's lock.
  await sql.transaction((tx) => tx.exec(SCHEMA_MIGRATIONS[sql.dialect]));
  const applied = new Map((await sql.all<AppliedRow>('SELECT version, name, checksum FROM schema_migrations')).map((r) => [r.version, r]));
  verify(applied, wanted);

  const done: number[] = [];
  for (const m of wanted) {
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
