import { describe, expect, it } from 'vitest';
import { openDuckDb } from '../../../../services/bulk/duckdb.ts';

describe('the build-wide DuckDB instance', () => {
  it('runs the statements it is given one after another, in the order given', async () => {
    const duckdb = await openDuckDb();
    try {
      // Sent together without waiting: each statement sees what the one before it wrote.
      const steps = [
        duckdb.exec('CREATE TABLE t (n INTEGER)'),
        duckdb.exec('INSERT INTO t SELECT range FROM range(100000)'),
        duckdb.exec('INSERT INTO t VALUES (-1)'),
        duckdb.exec('SELECT count(*), min(n) FROM t'),
      ];
      const answers = await Promise.all(steps);
      expect(answers[3]).toEqual([[100001n, -1]]);
    } finally {
      duckdb.close();
    }
  });

  it('goes on after a statement fails, and the failure is its caller’s', async () => {
    const duckdb = await openDuckDb();
    try {
      const failed = duckdb.exec('SELECT * FROM no_such_table');
      const next = duckdb.exec('SELECT 42');
      await expect(failed).rejects.toThrow(/no_such_table/);
      expect(await next).toEqual([[42]]);
    } finally {
      duckdb.close();
    }
  });
});
