// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, hashKey, listKeys, revokeKey } from '../../../../../services/control/billing/api-keys.ts';
import { runDailyBilling } from '../../../../../services/control/billing/billing.ts';
import { createClient, getClient, setClient } from '../../../../../services/control/billing/clients.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { openTestControl } from '../../../../helpers/control.ts';
import { loadRegistry } from '../../../../../services/domain/registry.ts';
import { ensureDemoKey } from '../../../../../services/control/billing/demo-key.ts';
import { createLedger } from '../../../../../services/control/billing/ledger.ts';
import { getPlan } from '../../../../../services/control/billing/plans.ts';
import { type TestContext, testContext } from '../../../../helpers/context.ts';

let ctx: TestContext;
let sql: Sql;
beforeAll(async () => {
  ctx = testContext(import.meta.url);
  sql = await openTestControl({ path: ctx.config.DATABASE_PATH, registry: loadRegistry(), label: 'access_tables' });
});
afterAll(async () => {
  await sql.close();
  ctx.cleanupFiles();
});

describe('api keys in SQLite', () => {
  it('store only the HMAC of the key, never the key', async () => {
    const client = await createClient(sql, { name: 'Acme', plan: 'developer' });
    const { raw, key } = await createKey(sql, { clientId: client.id, env: 'live', prefix: 'txc', secret: ctx.config.KEY_HASH_SECRET });
    const row = (await sql.get<Record<string, string>>('SELECT * FROM api_keys WHERE id = ?', [key.id]))!;
    expect(row.hash).toBe(hashKey(ctx.config.KEY_HASH_SECRET, raw));
    expect(JSON.stringify(row)).not.toContain(raw);
    expect(JSON.stringify(row)).not.toContain(raw.slice(9));
    expect(key.hint).toBe(raw.slice(-4));
    expect((await listKeys(sql, client.id)).map((k) => k.id)).toEqual([key.id]);
    expect((await revokeKey(sql, key.id))?.revokedAt).not.toBeNull();
  });

  it('clients carry plan, status, subscription and signup time; changes are plain updates', async () => {
    const client = await createClient(sql, { name: 'Beta', plan: 'free_trial', createdAt: new Date('2026-01-02T03:04:05Z') });
    expect(client).toMatchObject({ plan: 'free_trial', status: 'active', subscription: 'active', createdAt: '2026-01-02T03:04:05.000Z' });
    await setClient(sql, client.id, { plan: 'pro', subscription: 'past_due' });
    expect(await getClient(sql, client.id)).toMatchObject({ plan: 'pro', subscription: 'past_due' });
  });
});

describe('daily overage billing', () => {
  it('one line per client and day, recomputed in place on a rerun, never a credit billed twice', async () => {
    const a = await createClient(sql, { name: 'A', plan: 'developer' });
    const b = await createClient(sql, { name: 'B', plan: 'growth' });
    for (const c of [a, b]) await setClient(sql, c.id, { monthlyCredits: 0 });
    const ledger = createLedger(sql);
    const plans = { developer: await getPlan(sql, 'developer'), growth: await getPlan(sql, 'growth') };
    const account = (id: string, plan: 'developer' | 'growth') => ({
      clientId: id,
      plan: { ...plans[plan], monthlyCredits: 0 },
      subscription: 'active' as const,
      createdAt: '2026-01-01T00:00:00.000Z',
      env: 'live' as const,
    });
    const day1 = new Date('2026-03-10T23:59:59.000Z');
    const day2 = new Date('2026-03-11T00:00:01.000Z');
    for (let i = 0; i < 11; i++) await ledger.charge(account(a.id, 'developer'), day1, `a1_${i}`);
    await ledger.charge(account(b.id, 'growth'), day1, 'b1');
    for (let i = 0; i < 10; i++) await ledger.charge(account(a.id, 'developer'), day2, `a2_${i}`);

    const first = await runDailyBilling(sql, '2026-03-10');
    expect(first).toEqual({
      date: '2026-03-10',
      lines: [
        { client_id: a.id, credits: 11, amount_usd: 0.1 },
        { client_id: b.id, credits: 1, amount_usd: 0.05 },
      ].sort((x, y) => (x.client_id < y.client_id ? -1 : 1)), // SQLite's binary order
    });
    expect(await runDailyBilling(sql, '2026-03-10')).toEqual(first);
    expect((await runDailyBilling(sql, '2026-03-11')).lines).toEqual([{ client_id: a.id, credits: 10, amount_usd: 0.05 }]);
    const lines = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM overage_invoice_lines'))!;
    expect(lines.n).toBe(3);
    // A refund of a day-1 credit lands on day 1, whenever it is written.
    const late = await ledger.charge(account(a.id, 'developer'), day1, 'a1_late');
    if (!late.ok) throw new Error('expected a charge');
    await ledger.refund(late.reservation);
    expect(await runDailyBilling(sql, '2026-03-10')).toEqual(first);
  });
});

describe('demo key', () => {
  it('is created once, kept beside the database (not in SQLite), and reused on later starts', async () => {
    const first = await ensureDemoKey(sql, ctx.config);
    expect(first.created).toBe(true);
    const again = await ensureDemoKey(sql, ctx.config);
    expect(again).toEqual({ key: first.key, created: false });
    const dump = JSON.stringify(await sql.all('SELECT * FROM api_keys'));
    expect(dump).not.toContain(first.key);
    expect((await getClient(sql, 'cli_demo'))?.plan).toBe('enterprise');
    // Revoked: the next start makes a new one.
    const key = (await sql.get<{ id: string }>("SELECT id FROM api_keys WHERE client_id = 'cli_demo'"))!;
    await revokeKey(sql, key.id);
    const replaced = await ensureDemoKey(sql, ctx.config);
    expect(replaced.created).toBe(true);
    expect(replaced.key).not.toBe(first.key);
  });
});
