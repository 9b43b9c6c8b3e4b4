// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticate } from '../../../../../services/api/access/authenticate.ts';
import { countActiveKeys, createKey, getKey, listKeys } from '../../../../../services/control/billing/api-keys.ts';
import { recomputeBalances, storedBalances } from '../../../../../services/control/billing/balances.ts';
import { monthOverage } from '../../../../../services/control/billing/billing.ts';
import {
  createClient,
  getClient,
  listClients,
  reactivateClient,
  setClient,
  suspendClient,
} from '../../../../../services/control/billing/clients.ts';
import { type Account, createLedger } from '../../../../../services/control/billing/ledger.ts';
import {
  fulfilOrder,
  getOrder,
  newOrderId,
  OrderConflictError,
  orderPrice,
  placeOrder,
  UnknownOrderError,
} from '../../../../../services/control/billing/orders.ts';
import { grantPack, listPacks } from '../../../../../services/control/billing/packs.ts';
import { effectivePlan, getPlan, listPlans, PLAN_CODES, setPlan } from '../../../../../services/control/billing/plans.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { clientUsage, dailyRequests } from '../../../../../services/control/billing/usage.ts';
import { loadRegistry } from '../../../../../services/domain/registry.ts';
import { openTestControl } from '../../../../helpers/control.ts';

/**
 * The access-and-billing statements on whichever control plane the run uses (SQLite, or PostgreSQL
 * with TEST_DATABASE_URL; both must answer alike): every read and write of plans, clients, keys,
 * packs, the ledger and usage, with the books checked against the ledger after each step.
 */
let sql: Sql;
beforeAll(async () => {
  sql = await openTestControl({ registry: loadRegistry(), label: 'access_books' });
});
afterAll(async () => sql.close());

const SECRET = 'k'.repeat(32);

async function accountOf(clientId: string, env: 'live' | 'test' = 'live'): Promise<Account> {
  const client = (await getClient(sql, clientId))!;
  const plan = effectivePlan(await getPlan(sql, client.plan), client);
  return { clientId, plan, subscription: client.subscription, createdAt: client.createdAt, env };
}

describe('plans', () => {
  it('are listed in plan order, and a change of numbers is stored and read back', async () => {
    expect((await listPlans(sql)).map((p) => p.code)).toEqual([...PLAN_CODES]);
    const before = await getPlan(sql, 'mcp_starter');
    const changed = await setPlan(sql, 'mcp_starter', { rpm: before.rpm + 1 });
    expect(changed).toEqual({ ...before, rpm: before.rpm + 1 });
    expect(await setPlan(sql, 'mcp_starter', { rpm: before.rpm })).toEqual(before);
  });
});

describe('clients and keys', () => {
  it('suspend with a reason, reactivate, and a status set without a reason drops the old one', async () => {
    const c = await createClient(sql, { name: 'Held', plan: 'pro' });
    expect(await suspendClient(sql, c.id, 'Review')).toMatchObject({ status: 'suspended', statusReason: 'Review' });
    expect(await reactivateClient(sql, c.id)).toMatchObject({ status: 'active', statusReason: null });
    await suspendClient(sql, c.id, 'Again');
    expect(await setClient(sql, c.id, { status: 'closed' })).toMatchObject({ status: 'closed', statusReason: null });
    expect(await setClient(sql, c.id, { rpm: 7 })).toMatchObject({ status: 'closed', rpm: 7 });
    expect((await listClients(sql)).some((x) => x.id === c.id)).toBe(true);
    expect(await getClient(sql, 'cli_nobody')).toBeNull();
  });

  it('count only the keys not revoked, and authenticate by the key alone', async () => {
    const c = await createClient(sql, { name: 'Keys', plan: 'developer' });
    const a = await createKey(sql, { clientId: c.id, env: 'live', prefix: 'txc', secret: SECRET, name: 'main' });
    await createKey(sql, { clientId: c.id, env: 'test', prefix: 'txc', secret: SECRET });
    expect(await countActiveKeys(sql, c.id)).toBe(2);
    expect((await listKeys(sql, c.id)).map((k) => k.env).sort()).toEqual(['live', 'test']);
    const auth = createAuthenticate(sql, { secret: SECRET, prefix: 'txc' });
    const principal = await auth({ authorization: `Bearer ${a.raw}` });
    expect(principal).toMatchObject({ keyId: a.key.id, env: 'live', plan: { code: 'developer', rest: true, csv: false } });
    // The first authentication writes "last used" to the minute.
    expect((await getKey(sql, a.key.id))!.lastUsedAt).not.toBeNull();
    await expect(auth({ authorization: 'Bearer nope' })).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('the books', () => {
  it('grant, charge, spend a pack, bill overage, refund and expire, and the balances equal the ledger', async () => {
    const c = await createClient(sql, { name: 'Books', plan: 'developer' });
    await setClient(sql, c.id, { monthlyCredits: 2 });
    const ledger = createLedger(sql);
    const now = new Date('2026-05-10T12:00:00.000Z');
    const account = await accountOf(c.id);
    const own = await ledger.chargeMany([0, 1].map((i) => ({ account, now, requestId: `m${i}` })));
    expect(own.map((o) => (o instanceof Error ? 'error' : o.ok && o.reservation.bucket))).toEqual(['monthly', 'monthly']);

    const pack = await grantPack(sql, { clientId: c.id, pack: 'starter', purchasedAt: new Date('2025-05-20T00:00:00.000Z') });
    expect(pack).toMatchObject({
      clientId: c.id,
      pack: 'starter',
      credits: 1000,
      remaining: 1000,
      expiresAt: '2026-05-20T00:00:00.000Z',
      expiredAt: null,
    });
    const fromPack = await ledger.charge(account, now, 'p1');
    expect(fromPack).toMatchObject({ ok: true, reservation: { bucket: 'pack', packId: pack.id } });
    if (!fromPack.ok) throw new Error('expected a charge');
    await ledger.refund(fromPack.reservation);
    expect((await listPacks(sql, c.id))[0]!.remaining).toBe(1000);

    // After its expiry the pack is spent no more: the next credit is overage on the paid plan.
    const later = new Date('2026-05-21T00:00:00.000Z');
    const over = await ledger.charge(account, later, 'o1');
    expect(over).toMatchObject({ ok: true, reservation: { bucket: 'overage', period: '2026-05-21' } });
    expect((await listPacks(sql, c.id))[0]).toMatchObject({ remaining: 0, expiredAt: later.toISOString() });
    expect(await monthOverage(sql, c.id, '2026-05')).toEqual({ credits: 1, amountUsdCents: 5 });
    expect(await ledger.eventsThisMonth(c.id, 'live', later)).toBe(3);
    expect(await dailyRequests(sql, c.id, '2026-05')).toEqual([
      { day: '2026-05-10', requests: 2 },
      { day: '2026-05-21', requests: 1 },
    ]);
    expect(await dailyRequests(sql, c.id, '2026-05', 'test')).toEqual([]);

    const usage = await clientUsage(sql, (await getClient(sql, c.id))!, later);
    expect(usage).toMatchObject({ month: '2026-05', events: { live: 3, test: 0 }, overage_credits_this_month: 1 });
    expect(usage.buckets).toEqual([{ bucket: 'monthly', period: '2026-05', granted: 2, remaining: 0, capped_at: null }]);
    expect(usage.packs).toEqual([{ id: pack.id, pack: 'starter', remaining: 0, expires_at: '2026-05-20T00:00:00.000Z', expired: true }]);
    expect(await recomputeBalances(sql, c.id)).toEqual(await storedBalances(sql, c.id));
  });

  it("caps a trial after its seven days once, and touches a test key's own bucket", async () => {
    const c = await createClient(sql, { name: 'Trial', plan: 'free_trial', createdAt: new Date('2026-01-01T00:00:00.000Z') });
    const ledger = createLedger(sql);
    const live = await accountOf(c.id);
    await ledger.touch(live, new Date('2026-01-02T00:00:00.000Z'));
    await ledger.touch(live, new Date('2026-01-09T00:00:00.000Z'));
    await ledger.touch(live, new Date('2026-01-10T00:00:00.000Z'));
    await ledger.touch(await accountOf(c.id, 'test'), new Date('2026-01-10T00:00:00.000Z'));
    const stored = await storedBalances(sql, c.id);
    expect(stored.buckets).toEqual([
      { bucket: 'test', period: '2026-01', granted: 50, remaining: 50 },
      { bucket: 'trial', period: 'signup', granted: 500, remaining: 100 },
    ]);
    expect(await recomputeBalances(sql, c.id)).toEqual(stored);
  });

  it('concurrent charges and batches take exactly the credits left, each once', async () => {
    const c = await createClient(sql, { name: 'Race', plan: 'growth' });
    await setClient(sql, c.id, { monthlyCredits: 10, subscription: 'past_due' });
    const ledger = createLedger(sql);
    const account = await accountOf(c.id);
    const now = new Date();
    const outcomes = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => ledger.charge(account, now, `c${i}`)),
      ...Array.from({ length: 3 }, (_, i) => ledger.chargeMany([0, 1, 2, 3].map((j) => ({ account, now, requestId: `b${i}_${j}` })))),
    ]);
    const flat = outcomes.flat().map((o) => (o instanceof Error ? 'error' : o.ok ? 'ok' : o.reason));
    expect(flat.filter((o) => o === 'ok')).toHaveLength(10);
    expect(flat.filter((o) => o === 'quota_exhausted')).toHaveLength(14);
    expect(await ledger.eventsThisMonth(c.id, 'live', now)).toBe(10);
    expect(await recomputeBalances(sql, c.id)).toEqual(await storedBalances(sql, c.id));
  });

  it('an order is priced and fulfilled with the operator writes', async () => {
    const c = await createClient(sql, { name: 'Buyer', plan: 'free_trial' });
    expect(await orderPrice(sql, { kind: 'plan', plan: 'developer' })).toBe(1900);
    expect(await orderPrice(sql, { kind: 'plan', plan: 'enterprise' })).toBeNull();
    expect(await orderPrice(sql, { kind: 'pack', pack: 'bulk' })).toBe(9900);
    const now = new Date();
    const plan = await placeOrder(sql, {
      id: newOrderId(),
      clientId: c.id,
      order: { kind: 'plan', plan: 'pro' },
      priceUsdCents: 4900,
      now,
    });
    const pack = await placeOrder(sql, {
      id: newOrderId(),
      clientId: c.id,
      order: { kind: 'pack', pack: 'starter' },
      priceUsdCents: 500,
      now,
    });
    expect(pack).toMatchObject({ clientId: c.id, item: 'pack:starter', priceUsdCents: 500, fulfilledAt: null });
    expect(await fulfilOrder(sql, plan.id, now)).toBe(true);
    expect(await fulfilOrder(sql, pack.id, now)).toBe(true);
    expect((await getClient(sql, c.id))!.plan).toBe('pro');
    expect((await listPacks(sql, c.id)).map((p) => p.pack)).toEqual(['starter']);
  });

  it('an order is fulfilled once by its id, however often or concurrently it is confirmed', async () => {
    const c = await createClient(sql, { name: 'Twice', plan: 'free_trial' });
    const now = new Date();
    const input = { id: newOrderId(), clientId: c.id, order: { kind: 'pack', pack: 'bulk' } as const, priceUsdCents: 9900, now };
    const placed = await placeOrder(sql, input);
    // Placing the same form again finds the same order.
    expect(await placeOrder(sql, input)).toEqual(placed);
    const granted = await Promise.all([1, 2, 3, 4].map(() => fulfilOrder(sql, placed.id, now)));
    expect(granted.filter(Boolean)).toHaveLength(1);
    expect(await fulfilOrder(sql, placed.id, now)).toBe(false);
    expect((await listPacks(sql, c.id)).map((p) => p.pack)).toEqual(['bulk']);
    expect((await getOrder(sql, placed.id))!.fulfilledAt).toBe(now.toISOString());
    // An id names one order: another item or another client is refused, and an unknown id is no order.
    await expect(placeOrder(sql, { ...input, order: { kind: 'pack', pack: 'power' } })).rejects.toBeInstanceOf(OrderConflictError);
    const other = await createClient(sql, { name: 'Other', plan: 'free_trial' });
    await expect(placeOrder(sql, { ...input, clientId: other.id })).rejects.toBeInstanceOf(OrderConflictError);
    await expect(fulfilOrder(sql, newOrderId(), now)).rejects.toBeInstanceOf(UnknownOrderError);
  });
});
