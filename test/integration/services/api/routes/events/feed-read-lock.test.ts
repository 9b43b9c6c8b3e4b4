// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../../../../../../services/api/routes/events/read.ts';
import { openControlPlane } from '../../../../../../services/control/control-plane.ts';
import { appendEvents, type EventInput, publicEventId } from '../../../../../../services/control/feed/events.ts';
import type { Sql } from '../../../../../../services/control/db/sql.ts';
import { testTarget } from '../../../../../helpers/control.ts';
import { registry } from '../../../../../helpers/registry.ts';

/**
 * A read of the change feed takes no write lock: while another connection holds the control
 * plane's write lock (SQLite's BEGIN IMMEDIATE from another connection, as a worker or the CLI
 * in another process holds it; on PostgreSQL the writers' advisory lock, in a transaction that
 * has appended an event and not committed), GET /events' read answers at once from what is
 * committed, and its cursor never moves past the event still being written. Runs on SQLite, and
 * on PostgreSQL under TEST_DATABASE_URL.
 */

const event = (n: number): EventInput => ({
  type: 'certificate.redeemed',
  countySlug: 'alachua',
  data: { object: { id: `cert_${n}` }, previous: { status: 'sold' } },
});

/** Another connection's open write transaction that has appended one event; commit() ends it. */
interface HeldWrite {
  commit(): Promise<void>;
}

describe('GET /events reads without the write lock', () => {
  let dir: string;
  let where: ReturnType<typeof testTarget>;
  let sql: Sql;
  let committed: number[];
  const deps = () => ({ sql, registry, config: { EVENTS_RETENTION_DAYS: 90 } });
  // Every event here is public: any client reads them.
  const viewer = 'cli_feedlockreader';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'taxcert-feed-lock-'));
    where = testTarget(join(dir, 'taxcert.db'), 'feedlock');
    // A short busy timeout: a read that did wait for the lock would fail soon, not after 5 s.
    sql = await openControlPlane(where.target, { registry, busyTimeoutMs: 200, poolSize: 4 });
    committed = await appendEvents(sql, [event(1), event(2), event(3)]);
  });
  afterAll(async () => {
    await sql?.close();
    where?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Holds the write lock from a connection of its own, with one event appended inside. */
  async function holdWriteLock(): Promise<HeldWrite> {
    if (sql.dialect === 'sqlite') {
      const other = new BetterSqlite3(join(dir, 'taxcert.db'));
      other.exec('BEGIN IMMEDIATE');
      other
        .prepare('INSERT INTO events (type, county_slug, data) VALUES (?, ?, ?)')
        .run('certificate.redeemed', 'alachua', JSON.stringify(event(4).data));
      return {
        async commit() {
          other.exec('COMMIT');
          other.close();
        },
      };
    }
    const other = await openControlPlane(where.target, { registry, poolSize: 1 });
    let inside!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const released = new Promise<void>((r) => (release = r));
    // A writer as appendEvents is one: the plane's advisory lock, an id from the sequence, no commit yet.
    const done = other.transaction(async (tx) => {
      await appendEvents(tx, [event(4)]);
      inside();
      await released;
    });
    await entered;
    return {
      async commit() {
        release();
        await done;
        await other.close();
      },
    };
  }

  it('answers from the committed events while another connection holds the lock, and moves the cursor only past those', async () => {
    const held = await holdWriteLock();
    try {
      const page = await readEvents(deps(), viewer, { limit: 100 } as Parameters<typeof readEvents>[2]);
      expect(page.rows.map((r) => r.id)).toEqual(committed.map(publicEventId));
      expect(page.total).toBe(3);
      // Not the id the open transaction took: a poller passing this back gets that event once it commits.
      expect(page.nextAfter).toBe(publicEventId(committed[2]!));
      // The count of a full page is read in the same snapshot.
      const first = await readEvents(deps(), viewer, { limit: 2 } as Parameters<typeof readEvents>[2]);
      expect(first.total).toBe(3);
      expect(first.nextAfter).toBe(publicEventId(committed[1]!));
    } finally {
      await held.commit();
    }
    const after = await readEvents(deps(), viewer, { limit: 100, after: publicEventId(committed[2]!) } as Parameters<typeof readEvents>[2]);
    expect(after.rows).toHaveLength(1);
    expect((after.rows[0]!.data as { object: unknown }).object).toEqual({ id: 'cert_4' });
  });

  it('Sql.snapshot is read-only on both engines: a write inside it fails and leaves nothing', async () => {
    const before = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM events'))!.n;
    await expect(
      sql.snapshot((tx) => tx.run("INSERT INTO events (type, county_slug, data) VALUES ('certificate.redeemed', 'alachua', '{}')")),
    ).rejects.toMatchObject({
      code: sql.dialect === 'sqlite' ? 'SQLITE_READONLY' : '25006',
    });
    expect((await sql.get<{ n: number }>('SELECT count(*) AS n FROM events'))!.n).toBe(before);
    // The handle writes again afterwards (query_only is off once the snapshot ends).
    await appendEvents(sql, [event(5)]);
    expect((await sql.get<{ n: number }>('SELECT count(*) AS n FROM events'))!.n).toBe(before + 1);
  });
});
