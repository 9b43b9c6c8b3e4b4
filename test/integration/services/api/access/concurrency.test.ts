// @module-tag postgres
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../../../../services/control/billing/api-keys.ts';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { recomputeBalances, storedBalances } from '../../../../../services/control/billing/balances.ts';
import { type AccessTestApp, bearer, openAccessTestApp, spawnAccessServer } from '../../../../helpers/access.ts';
import { childEnv, runCli } from '../../../../helpers/cli.ts';

/**
 * These bursts prove that credits are charged exactly once under concurrency, so they send far
 * more at once than a client may have in flight (CLIENT_MAX_CONCURRENT, default 16): the cap is
 * raised here and tested on its own in in-flight.test.ts.
 */
const UNCAPPED = { CLIENT_MAX_CONCURRENT: '1000' };

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url, UNCAPPED);
});
afterAll(async () => t.close());

const events = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>('SELECT coalesce(sum(events), 0) AS n FROM usage_counts WHERE client_id = ?', [clientId]))!.n;
const charges = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM credit_ledger WHERE client_id = ? AND kind IN ('charge', 'overage')", [
    clientId,
  ]))!.n;
const expectBooksBalance = async (clientId: string) =>
  expect(await recomputeBalances(t.runtime.sql, clientId)).toEqual(await storedBalances(t.runtime.sql, clientId));

/** Spends credits through the ledger so a test starts with `left` credits in the key's bucket. */
async function spendDownTo(key: string, left: number, total: number) {
  const principal = await t.app.access.authenticate(bearer(key));
  for (let i = 0; i < total - left; i++) await t.app.access.ledger.charge(principal.account, new Date(), `req_setup_${i}`);
}

function statuses(codes: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
  return counts;
}

describe('one process', () => {
  it('500 concurrent requests from one client charge exactly 500 credits', async () => {
    const c = await t.client('enterprise');
    const res = await Promise.all(
      Array.from({ length: 500 }, () => t.app.inject({ method: 'GET', url: '/api/v1/probe', headers: bearer(c.key) })),
    );
    expect(statuses(res.map((r) => r.statusCode))).toEqual({ 200: 500 });
    expect(await charges(c.client.id)).toBe(500);
    expect(await events(c.client.id)).toBe(500);
    expect((await storedBalances(t.runtime.sql, c.client.id)).buckets[0]?.remaining).toBe(2_000_000_000 - 500);
    await expectBooksBalance(c.client.id);
  });

  it.each([
    ['free trial', 'free_trial' as const, 402, async () => {}],
    [
      'past_due subscription',
      'developer' as const,
      429,
      async (id: string) => void (await setClient(t.runtime.sql, id, { subscription: 'past_due' })),
    ],
  ])('%s with 10 credits left sending 50 at once gets exactly 10 answers of 200', async (_n, plan, refusal, prepare) => {
    const c = await t.client(plan);
    await setClient(t.runtime.sql, c.client.id, { rpm: 1000 });
    if (plan !== 'free_trial') await setClient(t.runtime.sql, c.client.id, { monthlyCredits: 100 });
    await prepare(c.client.id);
    await spendDownTo(c.key, 10, plan === 'free_trial' ? 500 : 100);
    const res = await Promise.all(
      Array.from({ length: 50 }, () => t.app.inject({ method: 'GET', url: '/api/v1/probe', headers: bearer(c.key) })),
    );
    expect(statuses(res.map((r) => r.statusCode))).toEqual({ 200: 10, [refusal]: 40 });
    await expectBooksBalance(c.client.id);
  });
});

// Exactly once across hosts: three API processes on separate ports, as three hosts behind a load
// balancer, share one control plane (PostgreSQL under TEST_DATABASE_URL, else the SQLite file) and
// one Redis, and still charge, limit and revoke as one.
const HOSTS = 3;

describe('three API processes on one database and one Redis', () => {
  const servers: { child: ChildProcess; url: string }[] = [];

  beforeAll(async () => {
    for (let i = 0; i < HOSTS; i++) {
      const { child, listening } = spawnAccessServer(
        childEnv(t.config, { KEY_HASH_SECRET: t.config.KEY_HASH_SECRET, LOG_LEVEL: 'error', ...UNCAPPED }),
      );
      const url = await listening;
      servers.push({ child, url });
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(
      servers.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve(null);
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
  });

  const burst = (key: string, n: number, path = '/api/v1/probe') =>
    Promise.all(
      Array.from({ length: n }, (_, i) => fetch(`${servers[i % HOSTS]!.url}${path}`, { headers: bearer(key) }).then((r) => r.status)),
    );

  it('1,500 concurrent requests split across the three charge exactly 1,500 credits', async () => {
    const c = await t.client('enterprise');
    expect(statuses(await burst(c.key, 1500))).toEqual({ 200: 1500 });
    expect(await charges(c.client.id)).toBe(1500);
    expect(await events(c.client.id)).toBe(1500);
    expect((await storedBalances(t.runtime.sql, c.client.id)).buckets[0]?.remaining).toBe(2_000_000_000 - 1500);
    await expectBooksBalance(c.client.id);
  });

  it('a trial past its 7 days is capped once, whichever host charges first', async () => {
    const c = await t.client('free_trial', { createdAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) });
    await setClient(t.runtime.sql, c.client.id, { rpm: 1000 });
    expect(statuses(await burst(c.key, 30))).toEqual({ 200: 30 });
    const caps = await t.runtime.sql.all<{ amount: number }>(
      "SELECT amount FROM credit_ledger WHERE client_id = ? AND kind = 'free_trial_expired_cap'",
      [c.client.id],
    );
    expect(caps).toEqual([{ amount: -400 }]);
    expect((await storedBalances(t.runtime.sql, c.client.id)).buckets).toEqual([
      { bucket: 'trial', period: 'signup', granted: 500, remaining: 100 - 30 },
    ]);
    await expectBooksBalance(c.client.id);
  });

  it("a day's overage is one invoice line, however many hosts charged it and however many run the billing", async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { rpm: 1000, monthlyCredits: 0 });
    expect(statuses(await burst(c.key, 45))).toEqual({ 200: 45 });
    const day = new Date().toISOString().slice(0, 10);
    // The day's billing run by three processes at once, as a scheduled job on every host would.
    const runs = await Promise.all(
      Array.from({ length: HOSTS }, () => runCli(['billing', 'run-daily', '--date', day], childEnv(t.config))),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(
      await t.runtime.sql.all('SELECT credits, amount_usd_cents FROM overage_invoice_lines WHERE client_id = ?', [c.client.id]),
    ).toEqual([{ credits: 45, amount_usd_cents: 25 }]);
    await expectBooksBalance(c.client.id);
  });

  it('a free trial with 10 credits left gets exactly 10 answers of 200 out of 50', async () => {
    const c = await t.client('free_trial');
    await setClient(t.runtime.sql, c.client.id, { rpm: 1000 });
    await spendDownTo(c.key, 10, 500);
    expect(statuses(await burst(c.key, 50))).toEqual({ 200: 10, 402: 40 });
    await expectBooksBalance(c.client.id);
  });

  it("a plan's RPM is one window across the three processes", async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { rpm: 20 });
    expect(statuses(await burst(c.key, 60))).toEqual({ 200: 20, 429: 40 });
    expect(await events(c.client.id)).toBe(20);
  });

  it('a key revoked in the shared control plane is refused by all three from the next request', async () => {
    const c = await t.client('developer');
    expect(await burst(c.key, HOSTS)).toEqual([200, 200, 200]);
    await revokeKey(t.runtime.sql, c.keyId);
    expect(await burst(c.key, HOSTS)).toEqual([401, 401, 401]);
  });
});
