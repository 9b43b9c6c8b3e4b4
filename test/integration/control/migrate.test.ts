import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../services/control/db.ts';
import { loadMigrations, MigrationError, migrate } from '../../../services/control/migrate.ts';
import { testContext } from '../../helpers/context.ts';
import { registry } from '../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
const dir = dirname(ctx.config.DATABASE_PATH);
afterAll(() => ctx.cleanupFiles());

const dbModule = fileURLToPath(new URL('../../../services/control/db.ts', import.meta.url));
const registryModule = fileURLToPath(new URL('../../../services/domain/registry.ts', import.meta.url));
const versions = loadMigrations().map((m) => m.version);

/** Runs openDatabase in a separate Node process, as the CLI beside the server would. */
function openInChild(path: string): Promise<number[]> {
  const script = join(dir, 'open-child.ts');
  writeFileSync(
    script,
    `import { openDatabase } from ${JSON.stringify(dbModule)};
import { loadRegistry } from ${JSON.stringify(registryModule)};
let applied: number[] = [];
openDatabase(process.argv[2]!, { registry: loadRegistry(), onMigrated: (v) => { applied = v; } }).close();
process.stdout.write(JSON.stringify(applied));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, path], { cwd: process.cwd() });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe('migrate', () => {
  it('applies every migration once, then nothing on a second run', () => {
    const path = join(dir, 'idempotent.db');
    const db = openDatabase(path, { registry });
    const rows = db.prepare('SELECT version, name, applied_at, checksum FROM schema_migrations ORDER BY version').all();
    expect(rows.map((r) => (r as { version: number }).version)).toEqual(versions);
    expect(migrate(db)).toEqual([]);
    closeDatabase(db);

    const again = openDatabase(path, { registry });
    expect(migrate(again)).toEqual([]);
    expect(again.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: versions.length });
    expect(again.prepare('SELECT count(*) AS n FROM counties').get()).toEqual({ n: 67 });
    closeDatabase(again);
  });

  it('two handles on one file: the schema is applied once', () => {
    const path = join(dir, 'two-handles.db');
    const a = openDatabase(path, { registry });
    const b = openDatabase(path, { registry });
    expect(b.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: versions.length });
    expect(b.prepare('SELECT count(*) AS n FROM counties').get()).toEqual({ n: 67 });
    closeDatabase(a);
    closeDatabase(b);
  });

  it('processes starting at the same time apply each migration exactly once between them', async () => {
    const path = join(dir, 'race.db');
    const results = await Promise.all([openInChild(path), openInChild(path)]);
    expect(results.flat().sort((x, y) => x - y)).toEqual(versions);
    const db = openDatabase(path, { registry });
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: versions.length });
    expect(db.prepare('SELECT count(*) AS n FROM counties').get()).toEqual({ n: 67 });
    closeDatabase(db);
  });

  it('refuses an applied migration whose file changed, naming it', () => {
    const db = openDatabase(join(dir, 'edited.db'), { registry });
    const edited = loadMigrations().map((m) => (m.version === 2 ? { ...m, checksum: 'f'.repeat(64) } : m));
    expect(() => migrate(db, edited)).toThrow(MigrationError);
    expect(() => migrate(db, edited)).toThrow(/002-sources was edited after it was applied/);
    closeDatabase(db);
  });

  it('refuses a database that is ahead of this build', () => {
    const db = openDatabase(join(dir, 'ahead.db'), { registry });
    expect(() => migrate(db, loadMigrations().slice(0, 2))).toThrow(/does not know/);
    closeDatabase(db);
  });
});
