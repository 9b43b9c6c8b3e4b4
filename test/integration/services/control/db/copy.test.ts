// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../../services/control/billing/api-keys.ts';
import { recomputeBalances, storedBalances } from '../../../../../services/control/billing/balances.ts';
import { createClient } from '../../../../../services/control/billing/clients.ts';
import { CopyError } from '../../../../../services/control/db/copy.ts';
import { copyControlPlane, openControlPlane } from '../../../../../services/control/control-plane.ts';
import { appendEvents } from '../../../../../services/control/feed/events.ts';
import { createLedger } from '../../../../../services/control/billing/ledger.ts';
import { grantPack } from '../../../../../services/control/billing/packs.ts';
import { getPlan } from '../../../../../services/control/billing/plans.ts';
import { openPostgres } from '../../../../../services/control/db/postgres.ts';
import type { SqliteSql } from '../../../../../services/control/db/sqlite.ts';
import { runCli } from '../../../../helpers/cli.ts';
import { createTestDatabase, postgresServerUrl } from '../../../../helpers/control.ts';
import { registry } from '../../../../helpers/registry.ts';

// Moving an existing deployment loses nothing: a SQLite deployment moves into an empty PostgreSQL
// database with every row, the identity counters past the copied ids, and balances that agree with
// both ledgers.

const dir = mkdtempSync(join(tmpdir(), 'taxcert-copy-'));
const drops: (() => void)[] = [];
afterAll(() => {
  for (const drop of drops) drop();
  rmSync(dir, { recursive: true, force: true });
});

function target(label: string): string {
  const db = createTestDatabase(label, postgresServerUrl());
  drops.push(db.drop);
  return db.url;
}

/** A SQLite control plane with clients, keys, charges on two buckets, a pack and events. */
async function populated(path: string): Promise<{ sql: SqliteSql; clients: string[] }> {
  const sql = (await openControlPlane(path, { registry, indexPrefix: 'copy' })) as SqliteSql;
  const ledger = createLedger(sql);
  const clients: string[] = [];
  for (const plan of ['developer', 'free_trial'] as const) {
    const client = await createClient(sql, { name: `copy ${plan}`, plan, createdAt: new Date('2026-11-01T00:00:00Z') });
    await createKey(sql, { clientId: client.id, env: 'live', prefix: 'txc', secret: 'x'.repeat(32) });
    const account = {
      clientId: client.id,
      plan: (await getPlan(sql, plan))!,
      subscription: client.subscription,
      createdAt: client.createdAt,
      env: 'live' as const,
    };
    for (let i = 0; i < 25; i++) await ledger.charge(account, new Date('2026-11-02T00:00:00Z'), `req_${plan}_${i}`);
    clients.push(client.id);
  }
  await grantPack(sql, { clientId: clients[0]!, pack: 'starter', purchasedAt: new Date('2026-11-03T00:00:00Z') });
  await appendEvents(sql, [
    { type: 'certificate.redeemed', countySlug: 'broward', data: { object: { id: 'cert_1' }, previous: { status: 'sold' } } },
  ]);
  return { sql, clients };
}

describe('taxcert control-plane copy', () => {
  it('copies every table, keeps the ledger and balances, and new rows continue after the copied ids', async () => {
    const { sql, clients } = await populated(join(dir, 'source.db'));
    const to = openPostgres(target('copy'));
    try {
      const report = await copyControlPlane(sql, to);
      expect(report.clientsVerified).toBe(2);
      const rows = Object.fromEntries(report.tables.map((t) => [t.table, t.rows]));
      expect(rows).toMatchObject({ counties: 67, clients: 2, api_keys: 2, credit_packs: 1, events: 1, stack: 1 });
      // A table's parents come first (foreign keys hold at every insert).
      expect(report.tables.findIndex((t) => t.table === 'clients')).toBeLessThan(report.tables.findIndex((t) => t.table === 'api_keys'));
      for (const id of clients) {
        expect(await storedBalances(to, id)).toEqual(await storedBalances(sql, id));
        expect(await recomputeBalances(to, id)).toEqual(await storedBalances(to, id));
      }
      // Identity counters continue after the copied ids: the next ledger row and event do not collide.
      const [next] = await appendEvents(to, [
        { type: 'certificate.redeemed', countySlug: 'leon', data: { object: { id: 'cert_2' }, previous: { status: 'sold' } } },
      ]);
      expect(next).toBe(2);
      const maxLedger = (await sql.get<{ n: number }>('SELECT max(id) AS n FROM credit_ledger'))!.n;
      const inserted = await to.get<{ id: number }>(
        "INSERT INTO credit_ledger (client_id, kind, bucket, period, amount, at) VALUES (?, 'grant', 'monthly', '2026-12', 1, '2026-12-01T00:00:00.000Z') RETURNING id",
        [clients[0]],
      );
      expect(inserted!.id).toBe(maxLedger + 1);
    } finally {
      await to.close();
      await sql.close();
    }
  });

  it('refuses a target that already holds rows, and leaves it as it was', async () => {
    const { sql } = await populated(join(dir, 'twice.db'));
    const url = target('twice');
    const to = openPostgres(url);
    try {
      await copyControlPlane(sql, to);
      const before = (await to.get<{ n: number }>('SELECT count(*) AS n FROM credit_ledger'))!.n;
      const again = copyControlPlane(sql, to);
      await expect(again).rejects.toThrow(CopyError);
      await expect(copyControlPlane(sql, to)).rejects.toThrow(/table \w+ has \d+ rows: copy into an empty database/);
      expect((await to.get<{ n: number }>('SELECT count(*) AS n FROM credit_ledger'))!.n).toBe(before);
    } finally {
      await to.close();
      await sql.close();
    }
  });

  it("the command copies the stack's file and says what it verified; a bad --to is a usage error", async () => {
    const path = join(dir, 'cli.db');
    const { sql } = await populated(path);
    await sql.close();
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      DATABASE_PATH: path,
      INDEX_PREFIX: 'copy',
      LOG_LEVEL: 'warn',
    };
    const ok = await runCli(['control-plane', 'copy', '--to', target('cli'), '--json'], env);
    expect(ok.code).toBe(0);
    const doc = JSON.parse(ok.stdout) as { clientsVerified: number; tables: { table: string; rows: number }[] };
    expect(doc.clientsVerified).toBe(2);
    expect(doc.tables.find((t) => t.table === 'clients')?.rows).toBe(2);
    const bad = await runCli(['control-plane', 'copy', '--to', 'mysql://x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('taxcert: --to: must be a postgres:// or postgresql:// URL');
    const badJson = await runCli(['--json', 'control-plane', 'copy', '--to', 'mysql://x'], env);
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.stdout)).toEqual({
      error: { code: 'usage_error', message: '--to: must be a postgres:// or postgresql:// URL' },
    });
    // The source is the SQLite file: a stack already on PostgreSQL has nothing to copy from.
    const onPostgres = await runCli(['--json', 'control-plane', 'copy', '--to', target('cli-twice')], {
      ...env,
      DATABASE_URL: target('cli-source'),
    });
    expect(onPostgres.code).toBe(2);
    expect(JSON.parse(onPostgres.stdout).error).toMatchObject({
      code: 'usage_error',
      message: expect.stringMatching(/^DATABASE_URL is set: the copy reads the SQLite file/),
    });
  });
});
