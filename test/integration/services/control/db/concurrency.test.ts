// @module-tag postgres
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCounty, updateCountyCoverage } from '../../../../../services/control/ingest/counties.ts';
import type { Database } from 'better-sqlite3';
import { openControlPlane } from '../../../../../services/control/control-plane.ts';
import type { SqliteSql } from '../../../../../services/control/db/sqlite.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { testContext } from '../../../../helpers/context.ts';
import { registry } from '../../../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
const path = ctx.config.DATABASE_PATH;
// SQLite only, whatever TEST_DATABASE_URL says: these are the file's own locking rules.
let sql: Sql;
let db: Database;
beforeAll(async () => {
  sql = await openControlPlane(path, { registry });
  db = (sql as SqliteSql).db;
});
afterAll(async () => {
  await sql.close();
  ctx.cleanupFiles();
});

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

describe('two connections on one file', () => {
  it('runs in WAL mode with a busy timeout, foreign keys on and synchronous NORMAL', async () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('a second connection reads while the first holds a write transaction', async () => {
    const reader = await openControlPlane(path, { registry });
    try {
      await sql.transaction(async (tx) => {
        await updateCountyCoverage(tx, 'leon', { certificateCount: 7 });
        // The reader sees the last committed state, without waiting or failing.
        expect((await getCounty(reader, 'leon'))?.certificateCount).toBe(0);
      });
      expect((await getCounty(reader, 'leon'))?.certificateCount).toBe(7);
    } finally {
      await reader.close();
    }
  });

  it('a writer waits for another process to release its lock instead of failing', async () => {
    // The other process takes the write lock, holds it a second, then says when it let go.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(betterSqlite3)});
         const db = new D(process.argv[1]);
         db.exec('BEGIN IMMEDIATE');
         db.prepare("UPDATE counties SET certificate_count = 1 WHERE county_slug = 'bay'").run();
         process.stdout.write('locked\\n');
         setTimeout(() => { const at = Date.now(); db.exec('COMMIT'); db.close(); process.stdout.write('released ' + at + '\\n'); }, 1000);`,
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    await new Promise<void>((resolve) =>
      holder.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('locked')) resolve();
      }),
    );
    const exited = new Promise((resolve) => holder.on('close', resolve));

    // The busy wait happens inside one synchronous SQLite call, so there is no event to await:
    // what shows the write waited is that it began before the lock was let go, and succeeded.
    const started = Date.now();
    const updated = await updateCountyCoverage(sql, 'bay', { certificateCount: 3 });
    expect(updated.certificateCount).toBe(3);
    expect(await exited).toBe(0);
    const released = Number(/released (\d+)/.exec(out)?.[1]);
    expect(started).toBeLessThan(released);
  });

  it('with no busy timeout the same situation fails at once (what the timeout prevents)', async () => {
    const impatient = await openControlPlane(path, { registry, busyTimeoutMs: 0 });
    const other = await openControlPlane(path, { registry });
    try {
      (other as SqliteSql).db.exec('BEGIN IMMEDIATE');
      await expect(updateCountyCoverage(impatient, 'bay', { certificateCount: 4 })).rejects.toThrow(/locked|busy/i);
    } finally {
      (other as SqliteSql).db.exec('ROLLBACK');
      await other.close();
      await impatient.close();
    }
  });
});
