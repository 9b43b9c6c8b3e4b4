// @module-tag postgres
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ControlTarget } from '../../../../../services/control/db/db.ts';
import { openControlPlane } from '../../../../../services/control/control-plane.ts';
import { loadMigrations, MigrationError, migrate } from '../../../../../services/control/db/migrate.ts';
import { testContext } from '../../../../helpers/context.ts';
import { testDatabaseUrl, testTarget } from '../../../../helpers/control.ts';
import { registry } from '../../../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
const dir = dirname(ctx.config.DATABASE_PATH);
const drops: (() => void)[] = [];
afterAll(() => {
  for (const drop of drops) drop();
  ctx.cleanupFiles();
});

const dbModule = fileURLToPath(new URL('../../../../../services/control/control-plane.ts', import.meta.url));
const registryModule = fileURLToPath(new URL('../../../../../services/domain/registry.ts', import.meta.url));
const dialect = testDatabaseUrl() ? 'postgres' : 'sqlite';
const migrations = await loadMigrations(dialect);
const versions = migrations.map((m) => m.version);

function target(name: string): ControlTarget {
  const t = testTarget(join(dir, `${name}.db`), name);
  drops.push(t.drop);
  return t.target;
}

/** Opens the control plane in a separate Node process, as the CLI beside the server would. */
function openInChild(where: ControlTarget): Promise<number[]> {
  const script = join(dir, 'open-child.mts');
  writeFileSync(
    script,
    `import { openControlPlane } from ${JSON.stringify(dbModule)};
import { loadRegistry } from ${JSON.stringify(registryModule)};
let applied: number[] = [];
const sql = await openControlPlane(JSON.parse(process.argv[2]!), { registry: loadRegistry(), onMigrated: (v) => { applied = v; } });
await sql.close();
process.stdout.write(JSON.stringify(applied));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(where)], { cwd: process.cwd() });
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

const count = async (sql: Awaited<ReturnType<typeof openControlPlane>>, table: string) =>
  (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))?.n;

describe(`migrate (${dialect})`, () => {
  it('both dialects have the same versions and names', async () => {
    const names = async (d: 'sqlite' | 'postgres') => (await loadMigrations(d)).map((m) => `${m.version}-${m.name}`);
    expect(await names('postgres')).toEqual(await names('sqlite'));
  });

  it('applies every migration once, then nothing on a second run', async () => {
    const where = target('idempotent');
    const sql = await openControlPlane(where, { registry });
    const rows = await sql.all<{ version: number }>('SELECT version, name, applied_at, checksum FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(versions);
    expect(await migrate(sql)).toEqual([]);
    await sql.close();

    const again = await openControlPlane(where, { registry });
    expect(await migrate(again)).toEqual([]);
    expect(await count(again, 'schema_migrations')).toBe(versions.length);
    expect(await count(again, 'counties')).toBe(67);
    await again.close();
  });

  it('two handles on one database: the schema is applied once', async () => {
    const where = target('two-handles');
    const a = await openControlPlane(where, { registry });
    const b = await openControlPlane(where, { registry });
    expect(await count(b, 'schema_migrations')).toBe(versions.length);
    expect(await count(b, 'counties')).toBe(67);
    await a.close();
    await b.close();
  });

  it('processes starting at the same time apply each migration exactly once between them', async () => {
    const where = target('race');
    const results = await Promise.all([openInChild(where), openInChild(where)]);
    expect(results.flat().sort((x, y) => x - y)).toEqual(versions);
    const sql = await openControlPlane(where, { registry });
    expect(await count(sql, 'schema_migrations')).toBe(versions.length);
    expect(await count(sql, 'counties')).toBe(67);
    await sql.close();
  });

  it('refuses an applied migration whose file changed, naming it', async () => {
    const sql = await openControlPlane(target('edited'), { registry });
    const edited = migrations.map((m) => (m.version === 2 ? { ...m, checksum: 'f'.repeat(64) } : m));
    await expect(migrate(sql, edited)).rejects.toThrow(MigrationError);
    await expect(migrate(sql, edited)).rejects.toThrow(/002-sources was edited after it was applied/);
    await sql.close();
  });

  it('refuses a database that is ahead of this build', async () => {
    const sql = await openControlPlane(target('ahead'), { registry });
    await expect(migrate(sql, migrations.slice(0, 2))).rejects.toThrow(/does not know/);
    await sql.close();
  });
});
