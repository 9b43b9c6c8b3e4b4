// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../../../../services/api/access/access.ts';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { recomputeBalances, storedBalances } from '../../../../../services/control/billing/balances.ts';
import { grantPack } from '../../../../../services/control/billing/packs.ts';
import { secondsToNextMonth } from '../../../../../services/control/billing/periods.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(async () => t.close());

const DAY = 24 * 60 * 60 * 1000;
const get = (key: string, url = '/api/v1/probe') => t.app.inject({ method: 'GET', url, headers: bearer(key) });
const ledger = async (clientId: string) =>
  t.runtime.sql.all<{ kind: string; bucket: string; pack_id: string | null; amount: number }>(
    'SELECT kind, bucket, pack_id, amount FROM credit_ledger WHERE client_id = ? ORDER BY id',
    [clientId],
  );
const usage = async (key: string) => (await get(key, '/api/v1/account/usage')).json().data;
const expectBooksBalance = async (clientId: string) =>
  expect(await recomputeBalances(t.runtime.sql, clientId)).toEqual(await storedBalances(t.runtime.sql, clientId));

describe('charging', () => {
  it('a 2xx costs 1 credit; 4xx/5xx answers and the usage route cost nothing', async () => {
    const c = await t.client('developer');
    expect((await get(c.key)).statusCode).toBe(200);
    expect((await get(c.key, '/api/v1/probe?status=404')).statusCode).toBe(404);
    expect((await get(c.key, '/api/v1/probe?status=500')).statusCode).toBe(500);
    expect((await get(c.key, '/api/v1/account/usage?bad=1')).statusCode).toBe(400);
    const u = await usage(c.key);
    expect(u).toMatchObject({ events_count: 1, monthly_quota: 10_000, percent_used: 0.01, plan: 'developer' });
    const rows = await ledger(c.client.id);
    expect(rows.filter((r) => r.kind === 'grant')).toEqual([{ kind: 'grant', bucket: 'monthly', pack_id: null, amount: 10_000 }]);
    expect(rows.filter((r) => r.kind === 'charge')).toHaveLength(3);
    expect(rows.filter((r) => r.kind === 'refund')).toHaveLength(2);
    await expectBooksBalance(c.client.id);
  });

  it('all keys of a client share the bucket; test keys have their own reduced one and never spend live credits', async () => {
    const c = await t.client('pro');
    const second = await t.key(c.client.id);
    const test = await t.key(c.client.id, 'test');
    await get(c.key);
    await get(second.key);
    await get(test.key);
    expect(await usage(c.key)).toMatchObject({ events_count: 2, monthly_quota: 50_000 });
    expect(await usage(test.key)).toMatchObject({ events_count: 1, monthly_quota: 5_000 });
    await expectBooksBalance(c.client.id);
  });

  it('usage: percent half-up to 2 decimals, reset at the next UTC month, 0 percent for Enterprise', async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 3 });
    await get(c.key);
    const u = await usage(c.key);
    const now = new Date();
    expect(u).toEqual({
      events_count: 1,
      monthly_quota: 3,
      percent_used: 33.33,
      reset_date: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      plan: 'developer',
    });
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 8 });
    expect((await usage(c.key)).percent_used).toBe(12.5);
    const e = await t.client('enterprise');
    await get(e.key);
    expect(await usage(e.key)).toMatchObject({ events_count: 1, monthly_quota: 2_000_000_000, percent_used: 0, plan: 'enterprise' });
  });
});

describe('free trial (spec 8.3)', () => {
  it('500 at signup; 402 payment_required with an upgrade hint when they run out', async () => {
    const c = await t.client('free_trial');
    const access = createAccess(t.runtime);
    // Spend 499 through the ledger directly, then the last two requests over HTTP.
    const principal = await access.authenticate(bearer(c.key));
    for (let i = 0; i < 499; i++) expect((await access.ledger.charge(principal.account, new Date(), `req_${i}`)).ok).toBe(true);
    expect((await get(c.key)).statusCode).toBe(200);
    const res = await get(c.key);
    expect(res.statusCode).toBe(402);
    const body = res.json();
    expect(body.error.code).toBe('payment_required');
    expect(body.error.details.upgrade.plans).toContain('developer');
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect(res.headers['retry-after']).toBeUndefined();
    // Usage stays readable.
    expect(await usage(c.key)).toMatchObject({ events_count: 500, monthly_quota: 500, plan: 'free_trial' });
    await expectBooksBalance(c.client.id);
  });

  it('on the first call after 7 days the balance is capped at min(remaining, 100), once, in the ledger', async () => {
    const c = await t.client('free_trial', { createdAt: new Date(Date.now() - 7 * DAY - 60_000) });
    expect((await get(c.key)).statusCode).toBe(200);
    expect((await get(c.key)).statusCode).toBe(200);
    const caps = (await ledger(c.client.id)).filter((r) => r.kind === 'free_trial_expired_cap');
    expect(caps).toEqual([{ kind: 'free_trial_expired_cap', bucket: 'trial', pack_id: null, amount: -400 }]);
    const trial = (await storedBalances(t.runtime.sql, c.client.id)).buckets.find((b) => b.bucket === 'trial');
    expect(trial).toMatchObject({ granted: 500, remaining: 98 });
    await expectBooksBalance(c.client.id);
  });

  it('a trial that used most of its credits keeps what is left (min), and the cap row is still written once', async () => {
    const c = await t.client('free_trial', { createdAt: new Date(Date.now() - 6 * DAY) });
    const access = createAccess(t.runtime);
    const principal = await access.authenticate(bearer(c.key));
    for (let i = 0; i < 450; i++) await access.ledger.charge(principal.account, new Date(), `req_${i}`);
    // Day 8: the next call caps at min(50, 100) = 50, then spends one.
    const later = new Date(Date.now() + 2 * DAY);
    expect((await access.ledger.charge(principal.account, later, 'req_late')).ok).toBe(true);
    expect((await access.ledger.charge(principal.account, later, 'req_late2')).ok).toBe(true);
    const caps = (await ledger(c.client.id)).filter((r) => r.kind === 'free_trial_expired_cap');
    expect(caps.map((r) => r.amount)).toEqual([0]);
    expect((await storedBalances(t.runtime.sql, c.client.id)).buckets[0]).toMatchObject({ remaining: 48 });
  });

  it('upgrading removes the cap: the paid plan spends its monthly grant', async () => {
    const c = await t.client('free_trial', { createdAt: new Date(Date.now() - 30 * DAY) });
    const access = createAccess(t.runtime);
    const principal = await access.authenticate(bearer(c.key));
    for (let i = 0; i < 100; i++) await access.ledger.charge(principal.account, new Date(), `req_${i}`);
    expect((await get(c.key)).statusCode).toBe(402);
    await setClient(t.runtime.sql, c.client.id, { plan: 'developer' });
    expect((await get(c.key)).statusCode).toBe(200);
    expect(await usage(c.key)).toMatchObject({ monthly_quota: 10_000, plan: 'developer' });
  });
});

describe('quota without overage answers 429 until next month', () => {
  it.each([
    ['past_due subscription', 'developer' as const, { subscription: 'past_due' as const }],
    ['Enterprise past its contract', 'enterprise' as const, {}],
  ])('%s', async (_name, plan, change) => {
    const c = await t.client(plan);
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 2, ...change });
    expect((await get(c.key)).statusCode).toBe(200);
    expect((await get(c.key)).statusCode).toBe(200);
    const res = await get(c.key);
    expect(res.statusCode).toBe(429);
    const retry = Number(res.headers['retry-after']);
    const expected = secondsToNextMonth(new Date());
    expect(Math.abs(retry - expected)).toBeLessThanOrEqual(2);
    expect(res.json().error).toMatchObject({ code: 'rate_limited', message: `Rate limit exceeded. Retry after ${retry} seconds.` });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect((await ledger(c.client.id)).some((r) => r.kind === 'overage')).toBe(false);
  });

  it('a test key past its reduced quota gets 429 even on an overage plan', async () => {
    const c = await t.client('developer', { env: 'test' });
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 10 }); // test quota: 1
    expect((await get(c.key)).statusCode).toBe(200);
    expect((await get(c.key)).statusCode).toBe(429);
  });
});

describe('overage (spec 8.4)', () => {
  it('an active paid plan keeps getting 200 past its grant and accrues overage credits', async () => {
    const c = await t.client('growth');
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 2 });
    for (let i = 0; i < 5; i++) expect((await get(c.key)).statusCode).toBe(200);
    expect((await get(c.key, '/api/v1/probe?status=404')).statusCode).toBe(404);
    const rows = await ledger(c.client.id);
    expect(rows.filter((r) => r.bucket === 'overage').reduce((n, r) => n + r.amount, 0)).toBe(3);
    expect(await usage(c.key)).toMatchObject({ events_count: 5, monthly_quota: 2, percent_used: 250 });
    await setClient(t.runtime.sql, c.client.id, { subscription: 'past_due' });
    expect((await get(c.key)).statusCode).toBe(429);
    await expectBooksBalance(c.client.id);
  });
});

describe('credit packs (spec 8.5)', () => {
  it('are spent after the monthly grant, soonest-expiring first, then overage; expired packs are written off', async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 1 });
    const now = Date.now();
    const expired = await grantPack(t.runtime.sql, { clientId: c.client.id, pack: 'starter', purchasedAt: new Date(now - 400 * DAY) });
    const later = await grantPack(t.runtime.sql, { clientId: c.client.id, pack: 'investigator', purchasedAt: new Date(now - 10 * DAY) });
    const sooner = await grantPack(t.runtime.sql, { clientId: c.client.id, pack: 'starter', purchasedAt: new Date(now - 300 * DAY) });
    for (let i = 0; i < 3; i++) expect((await get(c.key)).statusCode).toBe(200);
    const charges = (await ledger(c.client.id)).filter((r) => r.kind === 'charge');
    expect(charges.map((r) => r.pack_id ?? r.bucket)).toEqual(['monthly', sooner.id, sooner.id]);
    const expiry = (await ledger(c.client.id)).filter((r) => r.kind === 'pack_expiry');
    expect(expiry).toEqual([{ kind: 'pack_expiry', bucket: 'pack', pack_id: expired.id, amount: -1000 }]);
    const packs = (await storedBalances(t.runtime.sql, c.client.id)).packs;
    expect(packs.find((p) => p.id === expired.id)?.remaining).toBe(0);
    expect(packs.find((p) => p.id === sooner.id)?.remaining).toBe(998);
    expect(packs.find((p) => p.id === later.id)?.remaining).toBe(5000);
    await expectBooksBalance(c.client.id);
  });

  it('a free trial spends its pack after the trial credits instead of a 402; packs do not raise RPM or unlock CSV', async () => {
    const c = await t.client('free_trial', { createdAt: new Date(Date.now() - 30 * DAY) });
    await grantPack(t.runtime.sql, { clientId: c.client.id, pack: 'power' });
    const access = createAccess(t.runtime);
    const principal = await access.authenticate(bearer(c.key));
    for (let i = 0; i < 100; i++) await access.ledger.charge(principal.account, new Date(), `req_${i}`);
    const res = await get(c.key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect((await get(c.key, '/api/v1/probe?format=csv')).statusCode).toBe(403);
    await expectBooksBalance(c.client.id);
  });
});
