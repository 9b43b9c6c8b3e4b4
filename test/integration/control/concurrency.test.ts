import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCounty, updateCountyCoverage } from '../../../services/control/counties.ts';
import { type Database } from '../../../services/control/db.ts';
import { closeDatabase, openLegacyDb as openDatabase } from '../../helpers/control.ts';
import { testContext } from '../../helpers/context.ts';
import { registry } from '../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
const path = ctx.config.DATABASE_PATH;
let db: Database;
beforeAll(async () => {
  db = await openDatabase(path, { registry });
});
afterAll(async () => {
  closeDatabase(db);
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
    const reader = await openDatabase(path, { registry });
    try {
      db.exec('BEGIN IMMEDIATE');
      updateCountyCoverage(db, 'leon', { certificateCount: 7 });
      // The reader sees the last committed state, without waiting or failing.
      expect(getCounty(reader, 'leon')?.certificateCount).toBe(0);
      db.exec('COMMIT');
      expect(getCounty(reader, 'leon')?.certificateCount).toBe(7);
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
      closeDatabase(reader);
    }
  });

  it('a writer waits for another process to release its lock instead of failing', async () => {
    // The other process takes the write lock, holds it 400 ms, then commits.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(betterSqlite3)});
         const db = new D(process.argv[1]);
         db.exec('BEGIN IMMEDIATE');
         db.prepare("UPDATE counties SET certificate_count = 1 WHERE county_slug = 'bay'").run();
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`,
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => holder.on('close', resolve));

    const started = Date.now();
    const updated = updateCountyCoverage(db, 'bay', { certificateCount: 3 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(updated.certificateCount).toBe(3);
    expect(await exited).toBe(0);
  });

  it('with no busy timeout the same situation fails at once (what the timeout prevents)', async () => {
    const impatient = await openDatabase(path, { registry, busyTimeoutMs: 0 });
    const other = await openDatabase(path, { registry });
    try {
      other.exec('BEGIN IMMEDIATE');
      expect(() => updateCountyCoverage(impatient, 'bay', { certificateCount: 4 })).toThrow(/locked|busy/i);
    } finally {
      other.exec('ROLLBACK');
      closeDatabase(other);
      closeDatabase(impatient);
    }
  });
});
