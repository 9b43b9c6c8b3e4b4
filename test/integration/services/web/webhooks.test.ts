// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents } from '../../../../services/control/feed/events.ts';
import { createSavedSearch } from '../../../../services/control/feed/saved-searches.ts';
import { fanOut, listDeliveries, recordOutcomes } from '../../../../services/control/feed/webhook-deliveries.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { listEndpoints, signingSecrets } from '../../../../services/control/feed/webhook-endpoints.ts';
import { type AccountSite, openAccountSite, signedInAccount } from '../../../helpers/account-site.ts';
import { mainText } from '../../../helpers/form-client.ts';

/**
 * /account/webhooks against the real server and control plane: an endpoint made through the
 * page is the control plane's (its secret signs), shown once and never again; disable, enable
 * and rotate act on it; its deliveries list every attempt and replay one; a plan without
 * webhooks gets no form and its posts are refused; bad input comes back as the form with a
 * message; another client's endpoint is not found.
 */
let site: AccountSite;

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 1 });
});
afterAll(async () => site?.close());

const account = (plan: 'pro' | 'developer' | 'growth') => signedInAccount(site, plan);
const secretIn = (html: string) => /<code id="new-secret">(whsec_[^<]+)<\/code>/.exec(html)?.[1];

describe('/account/webhooks', () => {
  it('adds an endpoint on Pro: the secret is on the answer only, and is the one that signs', async () => {
    const a = await account('pro');
    const list = await a.browser.get('/account/webhooks');
    expect(list.statusCode).toBe(200);
    expect(mainText(list.body)).toContain('Add an endpoint');
    const made = await a.browser.post('/account/webhooks', {
      url: 'https://hooks.example.com/in',
      types: 'certificate.redeemed',
      counties: 'Miami-Dade, st johns',
    });
    expect(made.statusCode).toBe(201);
    expect(made.headers['cache-control']).toBe('no-store');
    const secret = secretIn(made.body)!;
    expect(secret).toMatch(/^whsec_/);
    expect(mainText(made.body)).toContain('Webhooks are in beta on your plan');

    const [endpoint] = await listEndpoints(site.t.runtime.sql, a.client.id);
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.com/in',
      types: ['certificate.redeemed'],
      counties: ['miami-dade', 'st-johns'],
      status: 'enabled',
    });
    expect(await signingSecrets(site.t.runtime.sql, createSecretBox(site.t.runtime.config.WEBHOOK_SECRET_KEY), endpoint!.id)).toEqual([
      secret,
    ]);

    const again = await a.browser.get('/account/webhooks');
    expect(again.body).not.toContain(secret);
    expect(again.body).not.toContain('whsec_');
    expect(mainText(again.body)).toContain(
      'https://hooks.example.com/in certificate.redeemed miami-dade, st-johns Every saved search Enabled',
    );
  });

  it("subscribes to chosen saved searches of the client's own, and refuses another client's by the same words as the API", async () => {
    const a = await account('growth');
    const b = await account('growth');
    const mine = await createSavedSearch(site.t.runtime.sql, { clientId: a.client.id, name: 'Lee, big', params: {}, limit: 10 });
    const theirs = await createSavedSearch(site.t.runtime.sql, { clientId: b.client.id, name: 'Theirs', params: {}, limit: 10 });
    const form = await a.browser.get('/account/webhooks');
    expect(mainText(form.body)).toContain('Saved searches (optional)');
    expect(form.body).toContain(`value="${mine.id}"`);
    expect(form.body).not.toContain(theirs.id);

    const refused = await a.browser.post('/account/webhooks', {
      url: 'https://h.example.com/s',
      types: 'saved_search.match_added',
      saved_searches: theirs.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(mainText(refused.body)).toContain('The saved searches');
    expect(await listEndpoints(site.t.runtime.sql, a.client.id)).toEqual([]);

    await a.browser.get('/account/webhooks');
    const made = await a.browser.post('/account/webhooks', {
      url: 'https://h.example.com/s',
      types: 'saved_search.match_added',
      saved_searches: mine.id,
    });
    expect(made.statusCode).toBe(201);
    expect((await listEndpoints(site.t.runtime.sql, a.client.id))[0]).toMatchObject({ savedSearches: [mine.id] });
    expect(mainText((await a.browser.get('/account/webhooks')).body)).toContain('saved_search.match_added Every county Lee, big Enabled');
  });

  it('disables and enables an endpoint, and rotates its secret (shown once, the old one still signing)', async () => {
    const a = await account('growth');
    await a.browser.get('/account/webhooks');
    const first = secretIn(
      (await a.browser.post('/account/webhooks', { url: 'https://h.example.com/x', types: 'certificate.created' })).body,
    )!;
    const [endpoint] = await listEndpoints(site.t.runtime.sql, a.client.id);

    await a.browser.get('/account/webhooks');
    const off = await a.browser.post(`/account/webhooks/${endpoint!.id}/disable`, {});
    expect(off.statusCode).toBe(303);
    expect((await listEndpoints(site.t.runtime.sql, a.client.id))[0]).toMatchObject({ status: 'disabled', disabledReason: 'operator' });
    expect(mainText((await a.browser.get(off.headers.location as string)).body)).toContain('The endpoint is disabled');
    expect(a.browser.body).toContain('>Enable<');

    expect((await a.browser.post(`/account/webhooks/${endpoint!.id}/enable`, {})).statusCode).toBe(303);
    expect((await listEndpoints(site.t.runtime.sql, a.client.id))[0]).toMatchObject({ status: 'enabled', disabledReason: null });

    await a.browser.get('/account/webhooks');
    const rotated = await a.browser.post(`/account/webhooks/${endpoint!.id}/rotate`, {});
    expect(rotated.statusCode).toBe(201);
    const second = secretIn(rotated.body)!;
    expect(second).not.toBe(first);
    expect(await signingSecrets(site.t.runtime.sql, createSecretBox(site.t.runtime.config.WEBHOOK_SECRET_KEY), endpoint!.id)).toEqual([
      second,
      first,
    ]);
    expect((await a.browser.get('/account/webhooks')).body).not.toContain(second);
  });

  it('shows deliveries with their attempts, and replays one', async () => {
    const a = await account('pro');
    await a.browser.get('/account/webhooks');
    await a.browser.post('/account/webhooks', { url: 'https://d.example.com/x', types: 'certificate.cancelled', counties: 'Broward' });
    const [endpoint] = await listEndpoints(site.t.runtime.sql, a.client.id);
    const [seq] = await appendEvents(site.t.runtime.sql, [
      { type: 'certificate.cancelled', countySlug: 'broward', data: { object: { id: 'cert_9' }, previous: { status: 'sold' } } },
    ]);
    await fanOut(site.t.runtime.sql, 1000);
    const [delivery] = (await listDeliveries(site.t.runtime.sql, endpoint!.id, { limit: 10, offset: 0 })).rows;
    const at = new Date().toISOString();
    await recordOutcomes(
      site.t.runtime.sql,
      [
        {
          deliveryId: delivery!.id,
          generation: 0,
          attempt: 1,
          startedAt: at,
          durationMs: 12,
          httpStatus: 500,
          error: null,
          responseBody: 'boom',
          endpointId: endpoint!.id,
          gone: false,
          next: { kind: 'retry', at },
        },
        {
          deliveryId: delivery!.id,
          generation: 0,
          attempt: 2,
          startedAt: at,
          durationMs: 9,
          httpStatus: 204,
          error: null,
          responseBody: '',
          endpointId: endpoint!.id,
          gone: false,
          next: { kind: 'delivered' },
        },
      ],
      3 * 24 * 3600 * 1000,
    );

    const shown = mainText((await a.browser.get(`/account/webhooks/${endpoint!.id}`)).body);
    expect(shown).toMatch(
      new RegExp(
        `evt_${seq} certificate\\.cancelled delivered Attempt 1, .* UTC: HTTP 500 \\(12 ms\\) Attempt 2, .* UTC: HTTP 204 \\(9 ms\\) Replay`,
      ),
    );

    const replayed = await a.browser.post(`/account/webhooks/${endpoint!.id}/replay`, { event: `evt_${seq}` });
    expect(replayed.statusCode).toBe(303);
    expect((await listDeliveries(site.t.runtime.sql, endpoint!.id, { limit: 10, offset: 0 })).rows[0]).toMatchObject({
      status: 'pending',
      generation: 1,
      attempts: 0,
    });
    expect(mainText((await a.browser.get(replayed.headers.location as string)).body)).toContain('queued to be sent again');

    // A disabled endpoint replays nothing, and says why.
    await a.browser.post(`/account/webhooks/${endpoint!.id}/disable`, {});
    await a.browser.get(`/account/webhooks/${endpoint!.id}`);
    const refused = await a.browser.post(`/account/webhooks/${endpoint!.id}/replay`, { event: `evt_${seq}` });
    expect(refused.statusCode).toBe(409);
    expect(mainText(refused.body)).toContain('Enable it first');
  });

  it("past the account's replays a minute, Replay answers 429 with when to try again, and queues nothing", async () => {
    const a = await account('growth');
    await a.browser.get('/account/webhooks');
    await a.browser.post('/account/webhooks', { url: 'https://r.example.com/x', types: 'certificate.cancelled', counties: 'Broward' });
    const [endpoint] = await listEndpoints(site.t.runtime.sql, a.client.id);
    const [seq] = await appendEvents(site.t.runtime.sql, [
      { type: 'certificate.cancelled', countySlug: 'broward', data: { object: { id: 'cert_r' }, previous: { status: 'sold' } } },
    ]);
    const perMinute = site.t.config.WEBHOOK_REPLAYS_PER_MINUTE;
    // The page's clock held at one instant, so the bucket cannot refill between posts on a slow machine.
    site.clock.fixedAt = Date.now();
    const post = async () => {
      await a.browser.get(`/account/webhooks/${endpoint!.id}`);
      return a.browser.post(`/account/webhooks/${endpoint!.id}/replay`, { event: `evt_${seq}` });
    };
    try {
      for (let i = 0; i < perMinute; i++) expect((await post()).statusCode, `replay ${i + 1}`).toBe(303);
      const rows = (await listDeliveries(site.t.runtime.sql, endpoint!.id, { limit: 10, offset: 0 })).rows;
      const refused = await post();
      expect(refused.statusCode).toBe(429);
      // A replay comes back every 60 / perMinute seconds.
      expect(refused.headers['retry-after']).toBe(String(Math.ceil(60 / perMinute)));
      expect(mainText(refused.body)).toMatch(
        new RegExp(`An account may replay ${perMinute} events a minute, and this one has for now\\. Try again in \\d+ seconds?\\.`),
      );
      expect((await listDeliveries(site.t.runtime.sql, endpoint!.id, { limit: 10, offset: 0 })).rows).toEqual(rows);
    } finally {
      site.clock.fixedAt = undefined;
    }
  });

  it('a plan without webhooks sees which plans have them and no form; a post is refused', async () => {
    const a = await account('developer');
    const text = mainText((await a.browser.get('/account/webhooks')).body);
    expect(text).toContain('Your plan does not include webhooks. They come with');
    expect(text).toContain('Pro (in beta)');
    expect(a.browser.body).toContain('href="/account/billing"');
    expect(a.browser.body).not.toContain('action="/account/webhooks"');
    const refused = await a.browser.post('/account/webhooks', { url: 'https://x.example.com/', types: 'certificate.created' });
    expect(refused.statusCode).toBe(403);
    expect(await listEndpoints(site.t.runtime.sql, a.client.id)).toEqual([]);
  });

  it('bad input comes back as the form with a message beside the field, never a 500', async () => {
    const a = await account('pro');
    await a.browser.get('/account/webhooks');
    const cases: [Record<string, string>, string, string][] = [
      [{ url: 'ftp://x.example.com/', types: 'certificate.created' }, 'url', 'starts with https:// or http://'],
      [{ url: '', types: 'certificate.created' }, 'url', 'Enter the address to send events to'],
      [{ url: 'https://user:pw@x.example.com/', types: 'certificate.created' }, 'url', 'must not carry a user name or password'],
      [{ url: 'https://x.example.com/' }, 'types', 'Choose at least one event type'],
      [{ url: 'https://x.example.com/', types: 'certificate.exploded' }, 'types', 'Choose event types from the list'],
      [
        { url: 'https://x.example.com/', types: 'certificate.created', counties: 'Atlantis' },
        'counties',
        'There is no Florida county called “Atlantis”',
      ],
    ];
    for (const [fields, field, text] of cases) {
      const res = await a.browser.post('/account/webhooks', fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain(`id="${field}-error"`);
      expect(mainText(res.body)).toContain(text);
      if (fields.url) expect(res.body).toContain(`value="${fields.url}"`);
    }
    expect(await listEndpoints(site.t.runtime.sql, a.client.id)).toEqual([]);
  });

  it("another client's endpoint is not found, and stays as it was", async () => {
    const owner = await account('pro');
    const other = await account('pro');
    await owner.browser.get('/account/webhooks');
    await owner.browser.post('/account/webhooks', { url: 'https://o.example.com/', types: 'certificate.created' });
    const [endpoint] = await listEndpoints(site.t.runtime.sql, owner.client.id);
    expect((await other.browser.get(`/account/webhooks/${endpoint!.id}`)).statusCode).toBe(404);
    await other.browser.get('/account/webhooks');
    for (const action of ['disable', 'rotate', 'replay'])
      expect((await other.browser.post(`/account/webhooks/${endpoint!.id}/${action}`, { event: 'evt_1' })).statusCode).toBe(404);
    expect((await listEndpoints(site.t.runtime.sql, owner.client.id))[0]).toMatchObject({ status: 'enabled', secretRotatedAt: null });
  });
});
