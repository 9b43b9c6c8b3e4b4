// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { suspendClient } from '../../../../services/control/billing/clients.ts';
import type { PlanCode } from '../../../../services/control/billing/plans.ts';
import { appendEvents, type EventInput } from '../../../../services/control/feed/events.ts';
import { listSavedSearches } from '../../../../services/control/feed/saved-searches.ts';
import { ALERTS_SHOWN } from '../../../../services/web/pages/saved-searches.ts';
import { type AccountSite, openAccountSite, signedInAccount } from '../../../helpers/account-site.ts';
import { mainText } from '../../../helpers/form-client.ts';

/**
 * /account/saved-searches against the real server and control plane: a search saved from its
 * query string is stored as the API stores the same params; each bad parameter is shown beside
 * its field in the API's own words; the plan's limit is shown and its refusal explained; rename
 * and delete (after a confirmation page) act on the client's own searches only; another client's
 * search is "not found" by its id; a search's page lists its own recent alerts, newest first.
 */
let site: AccountSite;

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 1 });
});
afterAll(async () => site?.close());

const account = (plan: PlanCode) => signedInAccount(site, plan);

type Browser = Awaited<ReturnType<typeof account>>['browser'];

/** Saves a search through the page; returns its id (from the address the page sends the browser to). */
async function save(browser: Browser, name: string, search: string): Promise<string> {
  await browser.get('/account/saved-searches');
  const res = await browser.post('/account/saved-searches', { name, search });
  expect(res.statusCode, mainText(res.body)).toBe(303);
  const location = res.headers.location as string;
  expect(location).toMatch(/^\/account\/saved-searches\/ss_[A-Za-z0-9_-]{16}\?notice=saved-search-created$/);
  return /ss_[A-Za-z0-9_-]{16}/.exec(location)![0];
}

/** The page's text with the entities the templates write turned back into characters. */
const shown = (html: string) =>
  mainText(html)
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

const searches = async (clientId: string) => (await listSavedSearches(site.t.runtime.sql, clientId, { limit: 100, offset: 0 })).rows;

describe('/account/saved-searches', () => {
  it('saves a search from a query string, stored as the API stores the same params, and shows it readably', async () => {
    const a = await account('developer');
    const list = await a.browser.get('/account/saved-searches');
    expect(list.statusCode).toBe(200);
    expect(mainText(list.body)).toContain('You have 0 of the 10 saved searches the Developer plan allows.');
    expect(mainText(list.body)).toContain('No saved searches yet.');

    const query = 'county=lee,miami-dade&status=sold&status=redeemed&face_min=2000&redeemed=false&sale_after=2024-05-01';
    const id = await save(a.browser, '  Lee and Miami-Dade over 2,000  ', query);
    const [stored] = await searches(a.client.id);
    expect(stored).toMatchObject({ id, name: 'Lee and Miami-Dade over 2,000' });

    // The same parameters through the API itself, with a key of the same client: the same params stored.
    const { raw } = await createKey(site.t.runtime.sql, {
      clientId: a.client.id,
      env: 'live',
      prefix: site.t.config.KEY_PREFIX,
      secret: site.t.config.KEY_HASH_SECRET,
    });
    const api = await site.app.inject({
      method: 'POST',
      url: '/api/v1/saved-searches',
      headers: { authorization: `Bearer ${raw}` },
      payload: {
        name: 'through the API',
        params: { county: 'lee,miami-dade', status: ['sold', 'redeemed'], face_min: '2000', redeemed: 'false', sale_after: '2024-05-01' },
      },
    });
    expect(api.statusCode, api.body).toBe(201);
    expect(stored!.params).toEqual(api.json().data.params);
    expect(stored!.params).toEqual({
      county: ['lee', 'miami-dade'],
      status: ['sold', 'redeemed'],
      face_min: 2000,
      redeemed: false,
      sale_after: '2024-05-01',
    });

    const page = await a.browser.get(`/account/saved-searches/${id}?notice=saved-search-created`);
    expect(page.statusCode).toBe(200);
    const text = shown(page.body);
    expect(text).toContain('The search is saved.');
    expect(text).toContain(
      'Counties: Lee, Miami-Dade Status: sold or redeemed Face amount at least 2,000 USD Sold on or after 1 May 2024 Not redeemed',
    );
    expect(text).toContain(`/api/v1/saved-searches/${id}/matches`);
    expect(text).toContain(
      'The same certificates as /api/v1/certificates/search?county=lee,miami-dade&status=sold,redeemed&face_min=2000&sale_after=2024-05-01&redeemed=false',
    );
    expect(text).toContain('No alerts yet.');

    const listed = shown((await a.browser.get('/account/saved-searches')).body);
    expect(listed).toContain('You have 2 of the 10 saved searches the Developer plan allows.');
    expect(listed).toMatch(/Lee and Miami-Dade over 2,000 Counties: Lee, Miami-Dade .* Not redeemed \d+ \w+ \d{4}, \d\d:\d\d UTC Never/);
    expect(listed).toContain('through the API');

    // A whole address pasted in counts from its '?'; an empty box saves the whole market.
    await save(a.browser, 'pasted', 'https://example.com/api/v1/certificates/search?county=broward&tax_year=2023,2024#top');
    await save(a.browser, 'everything', '');
    const byName = new Map((await searches(a.client.id)).map((s) => [s.name, s.params]));
    expect(byName.get('pasted')).toEqual({ county: ['broward'], tax_year: [2023, 2024] });
    expect(byName.get('everything')).toEqual({});
    expect(shown((await a.browser.get('/account/saved-searches')).body)).toContain('everything Every certificate (no filters)');
  });

  it("shows every problem beside its field in the API's words, keeps what was typed, and saves nothing", async () => {
    const a = await account('pro');
    const { raw } = await createKey(site.t.runtime.sql, {
      clientId: a.client.id,
      env: 'live',
      prefix: site.t.config.KEY_PREFIX,
      secret: site.t.config.KEY_HASH_SECRET,
    });
    const apiIssues = async (params: Record<string, unknown>, name = 'x') => {
      const res = await site.app.inject({
        method: 'POST',
        url: '/api/v1/saved-searches',
        headers: { authorization: `Bearer ${raw}` },
        payload: { name, params },
      });
      expect(res.statusCode).toBe(400);
      return (res.json().error.details.issues as { parameter: string; message: string }[]).map(
        (i) => `${i.parameter.replace(/^params\./, '')}: ${i.message}`,
      );
    };

    const cases: [string, Record<string, unknown>][] = [
      ['face_min=abc&sort=face_desc&bogus=1&county=lee', { face_min: 'abc', sort: 'face_desc', bogus: '1', county: 'lee' }],
      ['county=atlantis', { county: 'atlantis' }],
      ['face_min=5000&face_max=100', { face_min: '5000', face_max: '100' }],
    ];
    for (const [query, params] of cases) {
      await a.browser.get('/account/saved-searches');
      const res = await a.browser.post('/account/saved-searches', { name: 'fine', search: query });
      expect(res.statusCode, query).toBe(400);
      const text = shown(res.body);
      const words = await apiIssues(params);
      expect(words.length, query).toBeGreaterThan(0);
      for (const w of words) expect(text, query).toContain(w);
      // Beside the field, and the field still holds what was typed.
      expect(res.body).toMatch(/<ul class="error problems" id="search-error">/);
      expect(res.body).toContain(`value="${query.replaceAll('&', '&amp;')}"`);
    }

    // The name and the params refused together, each beside its own field.
    await a.browser.get('/account/saved-searches');
    const both = await a.browser.post('/account/saved-searches', { name: '   ', search: 'tax_year=1800' });
    expect(both.statusCode).toBe(400);
    const [nameWords] = (await apiIssues({}, '   ')).map((w) => w.replace(/^name: /, ''));
    expect(shown(both.body)).toContain(`The name ${nameWords}.`);
    expect(both.body).toMatch(/<p class="error" id="name-error">/);
    for (const w of await apiIssues({ tax_year: '1800' })) expect(shown(both.body)).toContain(w);

    // A broken %-sequence is the query string's own problem, as the API's 400 names it.
    await a.browser.get('/account/saved-searches');
    const broken = await a.browser.post('/account/saved-searches', { name: 'broken', search: 'county=%E0%A4%A&status=sold' });
    expect(broken.statusCode).toBe(400);
    expect(shown(broken.body)).toContain('county: malformed percent-encoding in the query string');
    const viaApi = await site.app.inject({
      method: 'GET',
      url: '/api/v1/certificates/search?county=%E0%A4%A',
      headers: { authorization: `Bearer ${raw}` },
    });
    expect(viaApi.json().error.details.issues).toEqual([
      { parameter: 'county', message: 'malformed percent-encoding in the query string' },
    ]);

    expect(await searches(a.client.id)).toEqual([]);
  });

  it("shows the plan's limit, offers no form at it, and refuses a post past it with the reason", async () => {
    const a = await account('free_trial');
    for (const name of ['one', 'two', 'three']) await save(a.browser, name, `county=lee&query=${name}`);
    const full = shown((await a.browser.get('/account/saved-searches')).body);
    expect(full).toContain('You have 3 of the 3 saved searches the Free Trial plan allows.');
    expect(full).toContain(
      'You already have 3 saved searches, the most the Free Trial plan allows: delete one first. Plans with more: Developer 10',
    );
    expect(a.browser.body).not.toContain('action="/account/saved-searches"');

    const refused = await a.browser.post('/account/saved-searches', { name: 'four', search: 'county=lee' });
    expect(refused.statusCode).toBe(403);
    expect(shown(refused.body)).toContain('You already have 3 saved searches, the most the Free Trial plan allows: delete one first.');
    expect(await searches(a.client.id)).toHaveLength(3);
  });

  it('a suspended account keeps its list but saves nothing, and is told why', async () => {
    const a = await account('pro');
    await save(a.browser, 'kept', 'county=lee');
    await suspendClient(site.t.runtime.sql, a.client.id, 'unpaid invoice');
    const list = shown((await a.browser.get('/account/saved-searches')).body);
    expect(list).toContain('Your account is suspended, so no searches can be saved.');
    expect(list).toContain('kept County: Lee');
    expect(a.browser.body).not.toContain('action="/account/saved-searches"');
    const refused = await a.browser.post('/account/saved-searches', { name: 'new', search: 'county=lee' });
    expect(refused.statusCode).toBe(403);
    expect(shown(refused.body)).toContain('Your account is suspended, so no searches can be saved.');
    expect((await searches(a.client.id)).map((s) => s.name)).toEqual(['kept']);
  });

  it('renames (a bad name shown beside the field), and deletes after a confirmation page', async () => {
    const a = await account('developer');
    const id = await save(a.browser, 'before', 'county=broward');
    await a.browser.get(`/account/saved-searches/${id}`);

    const empty = await a.browser.post(`/account/saved-searches/${id}/rename`, { name: '' });
    expect(empty.statusCode).toBe(400);
    expect(shown(empty.body)).toContain('The name must not be empty.');
    expect(empty.body).toMatch(/<p class="error" id="name-error">/);
    const long = await a.browser.post(`/account/saved-searches/${id}/rename`, { name: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(shown(long.body)).toContain('The name must be at most 120 characters.');
    expect((await searches(a.client.id))[0]!.name).toBe('before');

    const renamed = await a.browser.post(`/account/saved-searches/${id}/rename`, { name: 'after' });
    expect(renamed.statusCode).toBe(303);
    expect(renamed.headers.location).toBe(`/account/saved-searches/${id}?notice=saved-search-renamed`);
    const [row] = await searches(a.client.id);
    expect(row).toMatchObject({ name: 'after', params: { county: ['broward'] } });
    expect(shown((await a.browser.get(renamed.headers.location as string)).body)).toContain('The saved search is renamed.');

    // Delete asks first: the link opens a page that says what goes, with the button and a way back.
    const confirm = await a.browser.get(`/account/saved-searches/${id}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(shown(confirm.body)).toContain('Delete this saved search? Name after Filters County: Broward');
    expect(confirm.body).toContain(`<form method="post" action="/account/saved-searches/${id}/delete"`);
    expect(await searches(a.client.id)).toHaveLength(1);

    const gone = await a.browser.post(`/account/saved-searches/${id}/delete`, {});
    expect(gone.statusCode).toBe(303);
    expect(gone.headers.location).toBe('/account/saved-searches?notice=saved-search-deleted');
    expect(await searches(a.client.id)).toEqual([]);
    expect(shown((await a.browser.get(gone.headers.location as string)).body)).toContain('The saved search is deleted.');

    expect((await a.browser.post(`/account/saved-searches/${id}/delete`, {})).statusCode).toBe(404);
    expect((await a.browser.get(`/account/saved-searches/${id}`)).statusCode).toBe(404);
  });

  it("another client's saved search is not found by its id: not shown, renamed or deleted", async () => {
    const owner = await account('pro');
    const other = await account('pro');
    const id = await save(owner.browser, 'mine', 'county=lee');

    await other.browser.get('/account/saved-searches');
    expect(other.browser.body).not.toContain(id);
    for (const res of [
      await other.browser.get(`/account/saved-searches/${id}`),
      await other.browser.get(`/account/saved-searches/${id}/delete`),
      await other.browser.post(`/account/saved-searches/${id}/rename`, { name: 'taken over' }),
      await other.browser.post(`/account/saved-searches/${id}/delete`, {}),
      await other.browser.get('/account/saved-searches/ss_nope'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(shown(res.body)).toContain('This saved search does not exist or belongs to another account.');
    }
    expect(await searches(owner.client.id)).toMatchObject([{ id, name: 'mine' }]);
  });

  it("lists a search's recent alerts, newest first: its own client's and search's events only, at most the newest 20", async () => {
    const a = await account('growth');
    const b = await account('growth');
    const first = await save(a.browser, 'first', 'county=lee');
    const second = await save(a.browser, 'second', 'county=broward');
    const theirs = await save(b.browser, 'theirs', 'county=lee');

    const match = (type: EventInput['type'], owner: EventInput['owner'], number: string, name = 'first'): EventInput => ({
      type,
      countySlug: 'lee',
      data: {
        saved_search: { id: owner!.savedSearchId!, name },
        object: { id: `cert_${number}`, certificate_number: number, county_slug: 'lee', county_name: 'Lee', tax_year: 2024 },
        previous: {},
      },
      owner,
    });
    const own = { clientId: a.client.id, savedSearchId: first };
    await appendEvents(site.t.runtime.sql, [
      match('saved_search.match_added', own, '2024-0001'),
      match('saved_search.match_removed', { clientId: a.client.id, savedSearchId: second }, 'SECOND-ONLY', 'second'),
      match('saved_search.match_added', { clientId: b.client.id, savedSearchId: theirs }, 'THEIRS-ONLY', 'theirs'),
      // An event naming this search but another client is never shown to this one.
      match('saved_search.match_added', { clientId: b.client.id, savedSearchId: first }, 'FORGED-ONLY'),
      {
        type: 'certificate.created',
        countySlug: 'lee',
        data: { object: { id: 'cert_pub', certificate_number: 'PUBLIC-ONLY', county_name: 'Lee' }, previous: {} },
      },
      match('saved_search.match_updated', own, '2024-0002'),
      {
        type: 'saved_search.matches_loaded',
        countySlug: 'lee',
        data: {
          saved_search: { id: first, name: 'first' },
          object: { county_slug: 'lee', county_name: 'Lee', tax_year: 2025, count: 1234 },
          previous: {},
        },
        owner: own,
      },
    ]);

    const page = shown((await a.browser.get(`/account/saved-searches/${first}`)).body);
    expect(page).toContain('3 alerts, newest first.');
    expect(page).toMatch(
      /Matches in a first load .+ UTC 1,234 certificates of tax year 2025 Lee evt_\d+ saved_search\.matches_loaded Changed, still matches .+ UTC 2024-0002 cert_2024-0002 Lee evt_\d+ saved_search\.match_updated Now matches .+ UTC 2024-0001 cert_2024-0001 Lee evt_\d+ saved_search\.match_added/,
    );
    for (const other of ['SECOND-ONLY', 'THEIRS-ONLY', 'FORGED-ONLY', 'PUBLIC-ONLY']) expect(page).not.toContain(other);
    expect(shown((await a.browser.get(`/account/saved-searches/${second}`)).body)).toContain('No longer matches');
    expect(shown((await b.browser.get(`/account/saved-searches/${theirs}`)).body)).not.toContain('2024-0001');

    // More than the page shows: the newest 20, the newest first.
    await appendEvents(
      site.t.runtime.sql,
      Array.from({ length: ALERTS_SHOWN + 5 }, (_, i) => match('saved_search.match_added', own, `BULK-${String(i).padStart(3, '0')}`)),
    );
    const full = shown((await a.browser.get(`/account/saved-searches/${first}`)).body);
    expect(full).toContain(`The newest ${ALERTS_SHOWN} alerts, newest first.`);
    const numbers = [...full.matchAll(/cert_(BULK-\d{3})/g)].map((m) => m[1]);
    expect(numbers).toEqual(Array.from({ length: ALERTS_SHOWN }, (_, i) => `BULK-${String(ALERTS_SHOWN + 4 - i).padStart(3, '0')}`));
    expect(full).not.toContain('2024-0001');
  });
});
