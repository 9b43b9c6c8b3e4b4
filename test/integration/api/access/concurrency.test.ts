import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClient } from '../../../../services/control/clients.ts';
import { recomputeBalances, storedBalances } from '../../../../services/control/balances.ts';
import { type AccessTestApp, bearer, openAccessTestApp, spawnAccessServer } from '../../../helpers/access.ts';
import { childEnv } from '../../../helpers/cli.ts';

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
  (await t.runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM credit_ledger WHERE client_id = ? AND kind IN ('charge', 'overage')", [clientId]))!.n;
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
    ['past_due subscription', 'developer' as const, 429, async (id: string) => void (await setClient(t.runtime.sql, id, { subscription: 'past_due' }))],
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

describe('two API processes on one database and one Redis', () => {
  const servers: { child: ChildProcess; url: string }[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const { child, listening } = spawnAccessServer(childEnv(t.config, { KEY_HASH_SECRET: t.config.KEY_HASH_SECRET, LOG_LEVEL: 'error', ...UNCAPPED }));
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
    Promise.all(Array.from({ length: n }, (_, i) => fetch(`${servers[i % 2]!.url}${path}`, { headers: bearer(key) }).then((r) => r.status)));

  it('500 concurrent requests split across both charge exactly 500 credits', async () => {
    const c = await t.client('enterprise');
    expect(statuses(await burst(c.key, 500))).toEqual({ 200: 500 });
    expect(await charges(c.client.id)).toBe(500);
    await expectBooksBalance(c.client.id);
  });

  it('a free trial with 10 credits left gets exactly 10 answers of 200 out of 50', async () => {
    const c = await t.client('free_trial');
    await setClient(t.runtime.sql, c.client.id, { rpm: 1000 });
    await spendDownTo(c.key, 10, 500);
    expect(statuses(await burst(c.key, 50))).toEqual({ 200: 10, 402: 40 });
    await expectBooksBalance(c.client.id);
  });

  it("a plan's RPM is one window across both processes", async () => {
    const c = await t.client('developer');
    await setClient(t.runtime.sql, c.client.id, { rpm: 20 });
    expect(statuses(await burst(c.key, 40))).toEqual({ 200: 20, 429: 20 });
    expect(await events(c.client.id)).toBe(20);
  });

  it('a revocation made by the CLI side holds on both processes from the next request', async () => {
    const c = await t.client('developer');
    expect(await burst(c.key, 2)).toEqual([200, 200]);
    await t.runtime.sql.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [new Date().toISOString(), c.keyId]);
    expect(await burst(c.key, 2)).toEqual([401, 401]);
  });
});
