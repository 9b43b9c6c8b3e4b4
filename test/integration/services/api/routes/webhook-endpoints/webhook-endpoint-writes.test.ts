// @module-tag postgres
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSavedSearch, deleteSavedSearch } from '../../../../../../services/control/feed/saved-searches.ts';
import { MAX_ENDPOINTS_PER_CLIENT, signingSecrets } from '../../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../../services/control/feed/webhook-secrets.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../../helpers/access.ts';

// A client sets up its webhook endpoints through the API alone: create, read, change, rotate, delete.

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (key: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(key), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const usage = async (key: string) => (await call(key, 'GET', '/api/v1/account/usage')).json().data.events_count as number;

describe('webhook endpoints through the API', () => {
  it('creates (secret shown once), lists, reads, changes, rotates and deletes, each for 1 credit', async () => {
    const { key } = await t.client('growth');
    let credits = await usage(key);
    const made = await call(key, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://a.example.com/hooks',
      types: ['certificate.redeemed'],
    });
    expect(made.statusCode).toBe(201);
    const created = made.json();
    expect(created.data).toMatchObject({
      url: 'https://a.example.com/hooks',
      types: ['certificate.redeemed'],
      counties: null,
      status: 'enabled',
    });
    expect(created.data.secret).toMatch(/^whsec_/);
    expect(created.meta.request_id).toBe(made.headers['x-request-id']);
    expect(await usage(key)).toBe(++credits + 0);
    const id = created.data.id as string;

    const list = await call(key, 'GET', '/api/v1/webhook-endpoints');
    const one = await call(key, 'GET', `/api/v1/webhook-endpoints/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toEqual(list.json().data[0]);
    for (const res of [list, one]) {
      expect(res.body).not.toContain(created.data.secret);
      expect(res.body).not.toMatch(/whsec_|"secret"/);
    }
    credits += 2;

    const patched = await call(key, 'PATCH', `/api/v1/webhook-endpoints/${id}`, { counties: ['broward'], types: null, status: 'disabled' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ id, types: null, counties: ['broward'], status: 'disabled', disabled_reason: 'operator' });
    expect(patched.body).not.toMatch(/whsec_|"secret"/);
    const enabled = await call(key, 'PATCH', `/api/v1/webhook-endpoints/${id}`, { status: 'enabled', url: 'https://b.example.com/x' });
    expect(enabled.json().data).toMatchObject({
      status: 'enabled',
      disabled_reason: null,
      url: 'https://b.example.com/x',
      counties: ['broward'],
    });

    const rotated = await call(key, 'POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json().data.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(created.data.secret);
    expect(rotated.json().data.secret_rotated_at).not.toBeNull();
    // Both secrets sign during the overlap: a receiver holding either verifies a delivery.
    const secrets = await signingSecrets(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), id);
    expect(secrets).toEqual([newSecret, created.data.secret]);
    const payload = JSON.stringify({ type: 'certificate.redeemed' });
    const at = new Date();
    const signatures = secrets.map((s) => new Webhook(s).sign('evt_1', at, payload)).join(' ');
    for (const s of [newSecret, created.data.secret])
      expect(
        new Webhook(s).verify(payload, {
          'webhook-id': 'evt_1',
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signatures,
        }),
      ).toEqual({
        type: 'certificate.redeemed',
      });

    const gone = await call(key, 'DELETE', `/api/v1/webhook-endpoints/${id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data).toEqual({ id, deleted: true });
    for (const res of [patched, enabled, gone]) expect(res.body).not.toMatch(/whsec_|"secret"/);
    credits += 4;
    expect(await usage(key)).toBe(credits);
    expect((await call(key, 'DELETE', `/api/v1/webhook-endpoints/${id}`)).statusCode).toBe(404);
    expect((await call(key, 'GET', `/api/v1/webhook-endpoints/${id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another client's endpoint on every method, and changes nothing", async () => {
    const owner = await t.client('growth');
    const other = await t.client('growth');
    const id = (await call(owner.key, 'POST', '/api/v1/webhook-endpoints', { url: 'https://c.example.com/hooks' })).json().data
      .id as string;
    const tries = [
      call(other.key, 'GET', `/api/v1/webhook-endpoints/${id}`),
      call(other.key, 'PATCH', `/api/v1/webhook-endpoints/${id}`, { status: 'disabled' }),
      call(other.key, 'DELETE', `/api/v1/webhook-endpoints/${id}`),
      call(other.key, 'POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`),
      call(other.key, 'GET', `/api/v1/webhook-endpoints/${id}/deliveries`),
    ];
    for (const res of await Promise.all(tries)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await call(owner.key, 'GET', `/api/v1/webhook-endpoints/${id}`)).json().data).toMatchObject({
      status: 'enabled',
      secret_rotated_at: null,
    });
  });

  it('names each bad field with the rule the account page uses', async () => {
    const { key } = await t.client('growth');
    const before = await usage(key);
    const bad = await call(key, 'POST', '/api/v1/webhook-endpoints', { url: 'ftp://x.example.com', types: ['nope'], colour: 'red' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues).toEqual([{ parameter: 'colour', message: expect.stringContaining('unknown parameter') }]);
    const rule = await call(key, 'POST', '/api/v1/webhook-endpoints', { url: 'ftp://x.example.com', types: ['nope'] });
    expect(rule.statusCode).toBe(400);
    expect(rule.json().error.details.issues).toEqual([
      { parameter: 'url', message: 'must use http or https, not ftp' },
      { parameter: 'types', message: expect.stringContaining('unknown event type "nope"') },
    ]);
    const typed = await call(key, 'POST', '/api/v1/webhook-endpoints', { url: 7 });
    expect(typed.json().error.details.issues[0].parameter).toBe('url');
    const empty = await call(key, 'PATCH', '/api/v1/webhook-endpoints/whe_x', {});
    expect(empty.statusCode).toBe(400);
    expect(await usage(key)).toBe(before);
  });

  it("chooses the client's own saved searches: another client's id is a 400 as an unknown one; a search deleted later stays named", async () => {
    const owner = await t.client('growth');
    const other = await t.client('growth');
    const search = (clientId: string, name: string) =>
      createSavedSearch(t.runtime.sql, { clientId, name, params: { county: ['lee'] }, limit: 10 });
    const [first, second, theirs] = [
      await search(owner.client.id, 'first'),
      await search(owner.client.id, 'second'),
      await search(other.client.id, 'theirs'),
    ];
    const before = await usage(owner.key);
    const refused = [
      [{ url: 'https://f.example.com/hooks', saved_searches: [first.id, theirs.id] }, `unknown saved search "${theirs.id}"`],
      [{ url: 'https://f.example.com/hooks', saved_searches: ['ss_nosuchsearch'] }, 'unknown saved search "ss_nosuchsearch"'],
      [{ url: 'https://f.example.com/hooks', saved_searches: [] }, 'must name at least one saved search'],
    ] as const;
    for (const [body, message] of refused) {
      const res = await call(owner.key, 'POST', '/api/v1/webhook-endpoints', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.issues).toEqual([{ parameter: 'saved_searches', message: expect.stringContaining(message) }]);
    }
    expect(await usage(owner.key)).toBe(before);

    const made = await call(owner.key, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://f.example.com/hooks',
      saved_searches: [second.id, first.id, second.id],
    });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id as string;
    expect(made.json().data.saved_searches).toEqual([first.id, second.id].sort());
    const patchedAway = await call(owner.key, 'PATCH', `/api/v1/webhook-endpoints/${id}`, { saved_searches: [theirs.id] });
    expect(patchedAway.statusCode).toBe(400);
    expect(patchedAway.json().error.details.issues[0].parameter).toBe('saved_searches');

    // A deleted search stays named and the endpoint keeps working: a change of its address is accepted.
    expect(await deleteSavedSearch(t.runtime.sql, owner.client.id, first.id)).toBe(true);
    const moved = await call(owner.key, 'PATCH', `/api/v1/webhook-endpoints/${id}`, { url: 'https://g.example.com/hooks' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ url: 'https://g.example.com/hooks', saved_searches: [first.id, second.id].sort() });
    const all = await call(owner.key, 'PATCH', `/api/v1/webhook-endpoints/${id}`, { saved_searches: null });
    expect(all.json().data.saved_searches).toBeNull();
    expect((await call(owner.key, 'GET', `/api/v1/webhook-endpoints/${id}`)).json().data.saved_searches).toBeNull();
  });

  it('refuses a plan without webhooks (403 webhooks_disabled) and a client at its limit (403 limit_reached)', async () => {
    const dev = await t.client('developer');
    const refused = await call(dev.key, 'POST', '/api/v1/webhook-endpoints', { url: 'https://d.example.com/hooks' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('webhooks_disabled');

    const { key } = await t.client('pro');
    for (let i = 0; i < MAX_ENDPOINTS_PER_CLIENT; i++)
      expect((await call(key, 'POST', '/api/v1/webhook-endpoints', { url: `https://e${i}.example.com/hooks` })).statusCode).toBe(201);
    const before = await usage(key);
    const full = await call(key, 'POST', '/api/v1/webhook-endpoints', { url: 'https://full.example.com/hooks' });
    expect(full.statusCode).toBe(403);
    expect(full.json().error).toMatchObject({
      code: 'limit_reached',
      details: { resource: 'webhook_endpoints', limit: MAX_ENDPOINTS_PER_CLIENT, plan: 'pro' },
    });
    expect(full.json().error.message).toContain('delete one first');
    expect(await usage(key)).toBe(before);
  });
});
