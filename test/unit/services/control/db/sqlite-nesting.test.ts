// @module-tag postgres
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { NestedHandleError, openSqlite } from '../../../../../services/control/db/sqlite.ts';

/** The nested-handle check (sqlite.ts checkNesting): on outside production, off in it. */
describe('openSqlite checkNesting', () => {
  it('on (the default under test): the outer handle inside its own transaction is refused', async () => {
    const sql = openSqlite(':memory:');
    try {
      await expect(sql.transaction(async () => sql.get('SELECT 1 AS one'))).rejects.toBeInstanceOf(NestedHandleError);
    } finally {
      await sql.close();
    }
  });

  it('off: transactions commit, roll back and keep other statements out as before', async () => {
    const sql = openSqlite(':memory:', { checkNesting: false });
    try {
      await sql.exec('CREATE TABLE t (n INTEGER)');
      await sql.transaction(async (tx) => tx.run('INSERT INTO t (n) VALUES (1)'));
      await expect(
        sql.transaction(async (tx) => {
          await tx.run('INSERT INTO t (n) VALUES (2)');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // A write from outside waits for the open transaction, then lands after it.
      let release!: () => void;
      const open = sql.transaction(async (tx) => {
        await tx.run('INSERT INTO t (n) VALUES (3)');
        await new Promise<void>((resolve) => (release = resolve));
      });
      let landed = false;
      const outside = sql.run('INSERT INTO t (n) VALUES (4)').then(() => {
        landed = true;
      });
      // SQLite answers synchronously, so a write that did not wait would have landed before the
      // next turn of the event loop.
      await setImmediate();
      expect(landed).toBe(false);
      release();
      await Promise.all([open, outside]);
      expect(await sql.all('SELECT n FROM t ORDER BY rowid')).toEqual([{ n: 1 }, { n: 3 }, { n: 4 }]);
    } finally {
      await sql.close();
    }
  });
});
