// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, listKeys } from '../../../../services/control/billing/api-keys.ts';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { getClient, setClient, suspendClient } from '../../../../services/control/billing/clients.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { createSession } from '../../../../services/control/accounts/sessions.ts';
import { fulfilOrder } from '../../../../services/control/billing/orders.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import type { BillingProvider, CheckoutRequest } from '../../../../services/web/billing/provider.ts';
import { MAX_ACTIVE_KEYS } from '../../../../services/web/pages/keys.ts';
import { buildSite } from '../../../../services/web/site.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { childEnv, runCli } from '../../../helpers/cli.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';

/**
 * Keys and billing on the account page against the real server and control plane: keys belong
 * to their client only, need a confirmed address and an active client, are capped, and show
 * their last use; the overview counts as GET /api/v1/account/usage does; the test-mode
 * checkout writes what the operator's CLI writes; the billing seam's other answers.
 */
let site: AccountSite;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 2 });
});
afterAll(async () => site?.close());

let n = 0;
async function account(options: { verified?: boolean } = {}) {
  const { sql } = site.t.runtime;
  const email = `user-${++n}@example.com`;
  const made = await createTrialAccount(sql, {
    organisation: `Org ${n}`,
    email,
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  const client = formClient(site.app, { remoteAddress: `10.1.0.${n}` });
  if (options.verified === false) {
    // An unconfirmed user cannot sign in; a session begun before that rule still may be presented.
    client.cookies.set('__Host-taxcert-session', await createSession(sql, made.user.id, new Date()));
    return { ...made, browser: client };
  }
  await markEmailVerified(sql, made.user.id, new Date());
  await client.get('/account/signin');
  expect((await client.post('/account/signin', { email, password: PASSWORD })).statusCode).toBe(303);
  return { ...made, browser: client };
}
/** The order id the last checkout page put in its form. */
const orderOn = (body: string) => /name="order" value="(ord_[^"]+)"/.exec(body)![1]!;
const apiKey = async (clientId: string) => {
  const { sql, config } = site.t.runtime;
  return (await createKey(sql, { clientId, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET })).raw;
};
const api = (url: string, key: string) => site.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

describe('keys', () => {
  it("another client's key is not found, and stays as it was", async () => {
    const owner = await account();
    const other = await account();
    await apiKey(owner.client.id);
    const [key] = await listKeys(site.t.runtime.sql, owner.client.id);
    for (const url of [`/account/keys/${key!.id}/revoke`, `/account/keys/${key!.id}/rotate`]) {
      expect((await other.browser.get(url)).statusCode).toBe(404);
      await other.browser.get('/account/keys');
      expect((await other.browser.post(url, {})).statusCode).toBe(404);
    }
    expect(await listKeys(site.t.runtime.sql, owner.client.id)).toEqual([expect.objectContaining({ id: key!.id, revokedAt: null })]);
    expect(await listKeys(site.t.runtime.sql, other.client.id)).toEqual([]);
  });

  it('need a confirmed address, an active client, and fewer than the cap of active keys', async () => {
    const unverified = await account({ verified: false });
    await unverified.browser.get('/account/keys');
    expect(mainText(unverified.browser.body)).toContain('Confirm your email address first');
    const refused = await unverified.browser.post('/account/keys', { name: 'early', env: 'live' });
    expect(refused.statusCode).toBe(403);
    expect(await listKeys(site.t.runtime.sql, unverified.client.id)).toEqual([]);

    const many = await account();
    await many.browser.get('/account/keys');
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++)
      expect((await many.browser.post('/account/keys', { name: `k${i}`, env: i % 2 ? 'test' : 'live' })).statusCode).toBe(201);
    await many.browser.get('/account/keys');
    const over = await many.browser.post('/account/keys', { name: 'one too many', env: 'live' });
    expect(over.statusCode).toBe(403);
    expect(mainText(over.body)).toContain(`You have ${MAX_ACTIVE_KEYS} active keys`);
    expect((await listKeys(site.t.runtime.sql, many.client.id)).filter((k) => k.env === 'test')).toHaveLength(MAX_ACTIVE_KEYS / 2);

    const suspended = await account();
    await suspendClient(site.t.runtime.sql, suspended.client.id, 'Review in progress.');
    await suspended.browser.get('/account/keys');
    expect((await suspended.browser.post('/account/keys', { name: 'x', env: 'live' })).statusCode).toBe(403);
  });

  it('the raw key is on the answer to the form only; the list shows its name, kind, last four, and last use', async () => {
    const a = await account();
    await a.browser.get('/account/keys');
    const made = await a.browser.post('/account/keys', { name: 'nightly import', env: 'live' });
    const raw = /value="(txc_live_[0-9A-Za-z]{32})"/.exec(made.body)![1]!;
    expect(made.headers['cache-control']).toBe('no-store');
    expect(mainText((await a.browser.get('/account/keys')).body)).toMatch(/nightly import live …\S{4} \d+ \w+ \d{4} Never Active/);
    expect(a.browser.body).not.toContain(raw);
    expect((await api('/api/v1/counties', raw)).statusCode).toBe(200);
    expect(mainText((await a.browser.get('/account/keys')).body)).toMatch(
      /nightly import live …\S{4} \d+ \w+ \d{4} \d+ \w+ \d{4}, \d\d:\d\d UTC Active/,
    );
  });
});

describe('the overview counts as GET /api/v1/account/usage does', () => {
  it('requests, quota, percent and reset, with the bucket, overage billed so far and the per-minute limit', async () => {
    const a = await account();
    const { sql } = site.t.runtime;
    // Developer with a contract grant of 2 credits: two requests from the grant, then overage.
    await setClient(sql, a.client.id, { plan: 'developer', monthlyCredits: 2 });
    const key = await apiKey(a.client.id);
    for (let i = 0; i < 5; i++) expect((await api('/api/v1/counties', key)).statusCode).toBe(200);
    expect((await api('/api/v1/counties/atlantis', key)).statusCode).toBe(404);
    const usage = (await api('/api/v1/account/usage', key)).json().data as Record<string, unknown>;
    expect(usage).toMatchObject({ events_count: 5, monthly_quota: 2, percent_used: 250, plan: 'developer' });
    const page = mainText((await a.browser.get('/account')).body);
    const reset = new Date(usage.reset_date as string);
    expect(page).toContain(
      `Plan Developer Requests this month 5 Monthly quota 2 Used 250.00 % Resets ${reset.getUTCDate()} ${reset.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })} ${reset.getUTCFullYear()}, 00:00 UTC Credits left this month 0 of 2 Requests per minute 60`,
    );
    // Three overage credits on one day: 3 x 0.005 = 0.015, rounded up to 0.05 USD.
    expect(page).toContain('Overage credits this month 3 Billed so far 0.05 USD');
    expect(page).toMatch(/5 requests from 1 to \d+ \w+; busiest day/);
  });
});

describe('plans and packs through the billing seam', () => {
  it('a test-mode pack writes the rows `taxcert packs grant` writes; a plan applies from the next request', async () => {
    const web = await account();
    await web.browser.get('/account/billing/checkout?item=pack:investigator');
    expect(mainText(web.browser.body)).toContain('Test mode: no payment is taken.');
    expect(
      (await web.browser.post('/account/billing/checkout', { item: 'pack:investigator', order: orderOn(web.browser.body) })).headers
        .location,
    ).toBe('/account/billing?notice=pack-bought');

    const cli = await account();
    const granted = await runCli(['packs', 'grant', '--client', cli.client.id, '--pack', 'investigator'], childEnv(site.t.config));
    expect(granted.code, granted.stderr).toBe(0);
    const { sql } = site.t.runtime;
    const rows = async (clientId: string) => ({
      packs: await sql.all('SELECT pack, credits, price_usd_cents, remaining, expired_at FROM credit_packs WHERE client_id = ?', [
        clientId,
      ]),
      ledger: await sql.all(
        "SELECT kind, bucket, amount, CASE WHEN pack_id IS NULL THEN 0 ELSE 1 END AS has_pack, request_id FROM credit_ledger WHERE client_id = ? AND bucket = 'pack'",
        [clientId],
      ),
    });
    expect(await rows(web.client.id)).toEqual(await rows(cli.client.id));
    expect((await rows(web.client.id)).ledger).toEqual([
      { kind: 'pack_purchase', bucket: 'pack', amount: 5000, has_pack: 1, request_id: null },
    ]);

    const key = await apiKey(web.client.id);
    expect((await api('/api/v1/counties', key)).headers['x-ratelimit-limit']).toBe('30');
    await web.browser.get('/account/billing/checkout?item=plan:pro');
    expect(
      (await web.browser.post('/account/billing/checkout', { item: 'plan:pro', order: orderOn(web.browser.body) })).headers.location,
    ).toBe('/account/billing?notice=plan-changed');
    expect((await getClient(sql, web.client.id))!.plan).toBe('pro');
    expect((await api('/api/v1/counties', key)).headers['x-ratelimit-limit']).toBe('150');
    // The plan it is on cannot be bought again; Enterprise and the trial are not for sale here.
    expect((await web.browser.get('/account/billing/checkout?item=plan:pro')).statusCode).toBe(403);
    expect((await web.browser.get('/account/billing/checkout?item=plan:enterprise')).statusCode).toBe(400);
    expect((await web.browser.post('/account/billing/checkout', { item: 'plan:free_trial' })).statusCode).toBe(400);
  });

  it('a suspended client buys nothing', async () => {
    const a = await account();
    await suspendClient(site.t.runtime.sql, a.client.id, 'Chargeback.');
    await a.browser.get('/account/billing');
    expect(mainText(a.browser.body)).toContain('Your account is suspended');
    expect((await a.browser.post('/account/billing/checkout', { item: 'pack:starter' })).statusCode).toBe(403);
    expect(await site.t.runtime.sql.get('SELECT count(*) AS n FROM credit_packs WHERE client_id = ?', [a.client.id])).toEqual({ n: 0 });
  });

  it('a provider that sends the customer to its own checkout: redirected there, nothing fulfilled until it confirms', async () => {
    const asked: CheckoutRequest[] = [];
    const hosted: BillingProvider = {
      name: 'hosted',
      testMode: false,
      async checkout(request) {
        asked.push(request);
        return { status: 'redirect', url: 'https://pay.example.com/session/abc' };
      },
    };
    const app = await buildSite({ ...site.t.runtime, billing: hosted });
    try {
      const a = await account();
      const browser = formClient(app, { remoteAddress: '10.2.0.1' });
      browser.cookies.clear();
      for (const [k, v] of a.browser.cookies) browser.cookies.set(k, v);
      await browser.get('/account/billing/checkout?item=pack:bulk');
      expect(mainText(browser.body)).not.toContain('Test mode');
      expect(browser.body).toContain('Continue to payment');
      const orderId = orderOn(browser.body);
      const res = await browser.post('/account/billing/checkout', { item: 'pack:bulk', order: orderId });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('https://pay.example.com/session/abc');
      expect(asked).toEqual([
        {
          orderId,
          clientId: a.client.id,
          email: a.user.email,
          order: { kind: 'pack', pack: 'bulk' },
          priceUsdCents: 9900,
          description: 'Bulk pack: 25,000 credits, valid 12 months',
        },
      ]);
      expect(await site.t.runtime.sql.get('SELECT count(*) AS n FROM credit_packs WHERE client_id = ?', [a.client.id])).toEqual({ n: 0 });
      // The provider's confirmation names the order; fulfilled once however often it comes.
      expect(await fulfilOrder(site.t.runtime.sql, orderId, new Date())).toBe(true);
      expect(await fulfilOrder(site.t.runtime.sql, orderId, new Date())).toBe(false);
      expect(await site.t.runtime.sql.get('SELECT count(*) AS n FROM credit_packs WHERE client_id = ?', [a.client.id])).toEqual({ n: 1 });
    } finally {
      await app.close();
    }
  });

  it('the same checkout form posted three times, one after another or at once, grants one pack', async () => {
    const { sql } = site.t.runtime;
    const packs = async (clientId: string) =>
      (await sql.get<{ n: number }>('SELECT count(*) AS n FROM credit_packs WHERE client_id = ?', [clientId]))!.n;
    const a = await account();
    await a.browser.get('/account/billing/checkout?item=pack:starter');
    const form = { item: 'pack:starter', order: orderOn(a.browser.body) };
    for (let i = 0; i < 3; i++)
      expect((await a.browser.post('/account/billing/checkout', form)).headers.location).toBe('/account/billing?notice=pack-bought');
    expect(await packs(a.client.id)).toBe(1);
    await a.browser.get('/account/billing/checkout?item=pack:starter');
    const again = { item: 'pack:starter', order: orderOn(a.browser.body) };
    const raced = await Promise.all([1, 2, 3].map(() => a.browser.post('/account/billing/checkout', again)));
    expect(raced.map((r) => r.headers.location)).toEqual(Array(3).fill('/account/billing?notice=pack-bought'));
    expect(await packs(a.client.id)).toBe(2);
    expect(
      await sql.all('SELECT item, price_usd_cents FROM orders WHERE client_id = ? AND fulfilled_at IS NOT NULL', [a.client.id]),
    ).toEqual([
      { item: 'pack:starter', price_usd_cents: 500 },
      { item: 'pack:starter', price_usd_cents: 500 },
    ]);
    // One form is one order: its id cannot buy something else, nor be used by another client.
    expect((await a.browser.post('/account/billing/checkout', { ...again, item: 'pack:power' })).statusCode).toBe(409);
    const b = await account();
    await b.browser.get('/account/billing');
    expect((await b.browser.post('/account/billing/checkout', again)).statusCode).toBe(409);
    expect(await packs(b.client.id)).toBe(0);
    // A post without the page's order id buys nothing.
    expect((await b.browser.post('/account/billing/checkout', { item: 'pack:starter' })).statusCode).toBe(400);
    expect(await packs(b.client.id)).toBe(0);
  });

  it('a user whose address is not confirmed cannot check out', async () => {
    const a = await account({ verified: false });
    const refused = await a.browser.get('/account/billing/checkout?item=pack:starter');
    expect(refused.statusCode).toBe(403);
    expect(mainText(refused.body)).toContain('Confirm your email address first');
    const posted = await a.browser.post('/account/billing/checkout', { item: 'pack:starter', order: 'ord_AAAAAAAAAAAAAAAA' });
    expect(posted.statusCode).toBe(403);
    expect(await site.t.runtime.sql.get('SELECT count(*) AS n FROM credit_packs WHERE client_id = ?', [a.client.id])).toEqual({ n: 0 });
    expect(await site.t.runtime.sql.get('SELECT count(*) AS n FROM orders WHERE client_id = ?', [a.client.id])).toEqual({ n: 0 });
  });

  it('with no provider (BILLING_PROVIDER=none) the prices show and nothing can be bought here', async () => {
    const app = await buildSite({ ...site.t.runtime, billing: null });
    try {
      const a = await account();
      const browser = formClient(app, { remoteAddress: '10.2.0.2' });
      for (const [k, v] of a.browser.cookies) browser.cookies.set(k, v);
      await browser.get('/account/billing');
      expect(mainText(browser.body)).toContain('Plans and packs are changed by our team here');
      expect(mainText(browser.body)).toContain('Developer 19 USD a month');
      expect(browser.body).not.toContain('action="/account/billing/checkout"');
      expect((await browser.post('/account/billing/checkout', { item: 'plan:developer' })).statusCode).toBe(403);
      expect((await getClient(site.t.runtime.sql, a.client.id))!.plan).toBe('free_trial');
    } finally {
      await app.close();
    }
  });
});
