// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { recomputeBalances, storedBalances } from '../../../../../services/control/billing/balances.ts';
import type { Account, ChargeOutcome } from '../../../../../services/control/billing/ledger.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

/**
 * To spend less CPU per request, requests admitted in one event-loop turn share a Redis pipeline
 * for their windows and one SQLite transaction for their credits. Batching must not change who is
 * admitted: these send bursts that land in one turn and count exactly.
 */
let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(async () => t.close());

const get = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/probe', headers: bearer(key) });
const burst = async (key: string, n: number) => (await Promise.all(Array.from({ length: n }, () => get(key)))).map((r) => r.statusCode);
const count = (xs: number[], status: number) => xs.filter((x) => x === status).length;
const charges = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM credit_ledger WHERE client_id = ? AND kind = 'charge'", [clientId]))!
    .n;

describe('admissions batched per turn', () => {
  it('a burst over the credit left: exactly the credits left are charged and answered, the rest refused', async () => {
    const c = await t.client('enterprise');
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 3 });
    // The sizes of the batches the ledger is given: every request of the burst goes through the
    // batched charge. How many share one turn depends on how fast authentication answers (on
    // PostgreSQL each is a round trip, so a turn may hold one); that turns are batched at all is
    // turn-batch.test.ts's, with a clock of its own.
    const ledger = t.app.access.ledger;
    const chargeMany = ledger.chargeMany;
    const sizes: number[] = [];
    ledger.chargeMany = (requests) => {
      sizes.push(requests.length);
      return chargeMany(requests);
    };
    const statuses = await burst(c.key, 10).finally(() => {
      ledger.chargeMany = chargeMany;
    });
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
    expect(count(statuses, 200)).toBe(3);
    expect(count(statuses, 429)).toBe(7);
    expect(await charges(c.client.id)).toBe(3);
    expect(await recomputeBalances(t.runtime.sql, c.client.id)).toEqual(await storedBalances(t.runtime.sql, c.client.id));
  });

  it('a burst over the window: exactly the plan RPM are admitted, and only they are charged', async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { rpm: 4 });
    const statuses = await burst(c.key, 10);
    expect(count(statuses, 200)).toBe(4);
    expect(count(statuses, 429)).toBe(6);
    expect(await charges(c.client.id)).toBe(4);
  });

  it('two clients in one burst are each counted against their own credit', async () => {
    const a = await t.client('enterprise');
    const b = await t.client('enterprise');
    await setClient(t.runtime.sql, a.client.id, { monthlyCredits: 2 });
    await setClient(t.runtime.sql, b.client.id, { monthlyCredits: 5 });
    const [sa, sb] = await Promise.all([burst(a.key, 6), burst(b.key, 6)]);
    expect(count(sa!, 200)).toBe(2);
    expect(count(sb!, 200)).toBe(5);
    expect([await charges(a.client.id), await charges(b.client.id)]).toEqual([2, 5]);
  });
});

describe('ledger.chargeMany', () => {
  const account = async (clientId: string): Promise<Account> => {
    const plan = { ...(await t.app.access.authenticate(bearer(keys.get(clientId)!))).plan };
    return { clientId, plan, subscription: 'active', createdAt: '2026-01-01T00:00:00.000Z', env: 'live' };
  };
  const keys = new Map<string, string>();
  const client = async (credits: number) => {
    const c = await t.client('enterprise');
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: credits });
    keys.set(c.client.id, c.key);
    return c.client.id;
  };
  const shape = (o: ChargeOutcome | Error) => (o instanceof Error ? 'error' : o.ok ? o.reservation.bucket : o.reason);

  it('says for each request what charge() one after another would have said, in one transaction', async () => {
    const [one, two] = [await client(2), await client(2)];
    const now = new Date();
    const [first, second] = [await account(one), await account(two)];
    const batched = await t.app.access.ledger.chargeMany(
      Array.from({ length: 4 }, (_, i) => ({ account: first, now, requestId: `b${i}` })),
    );
    const sequential: ChargeOutcome[] = [];
    for (let i = 0; i < 4; i++) sequential.push(await t.app.access.ledger.charge(second, now, `s${i}`));
    expect(batched.map(shape)).toEqual(['monthly', 'monthly', 'quota_exhausted', 'quota_exhausted']);
    expect(batched.map(shape)).toEqual(sequential.map(shape));
    expect(await charges(one)).toBe(2);
    expect(await recomputeBalances(t.runtime.sql, one)).toEqual(await storedBalances(t.runtime.sql, one));
  });

  it('a charge that throws is rolled back alone; the others in its batch are kept', async () => {
    const id = await client(10);
    const now = new Date();
    const good = await account(id);
    const broken = { ...good, clientId: 'cli_nobody' };
    const out = await t.app.access.ledger.chargeMany([
      { account: good, now, requestId: 'k1' },
      { account: broken, now, requestId: 'k2' },
      { account: good, now, requestId: 'k3' },
    ]);
    expect(out.map(shape)).toEqual(['monthly', 'error', 'monthly']);
    expect(await charges(id)).toBe(2);
    expect(await t.runtime.sql.get("SELECT count(*) AS n FROM credit_ledger WHERE client_id = 'cli_nobody'")).toEqual({ n: 0 });
  });
});
