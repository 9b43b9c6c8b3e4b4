// @module-tag postgres
import { rollUp } from '../../../helpers/rollups.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { readCertificateSearch } from '../../../../services/api/routes/certificates/read.ts';
import { CERTIFICATE_FACETS } from '../../../../services/api/routes/certificates/params.ts';
import { clientAccount } from '../../../../services/control/accounts/accounts.ts';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { getClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents } from '../../../../services/control/feed/events.ts';
import { listSavedSearches } from '../../../../services/control/feed/saved-searches.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { type AccountSite, openAccountSite, signedInAccount } from '../../../helpers/account-site.ts';
import { mainText } from '../../../helpers/form-client.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * /account/explore against the real server, engine and control plane: the page's counts are the
 * API's own answer for the same parameters, each view is charged as the same API requests are,
 * a parameter the API refuses is a 400 page naming it in the API's words, and its forms create a
 * saved search and a portfolio position through the API's write functions. A certificate's page
 * shows the events this client may read, never another client's.
 */
let site: AccountSite;

/** Alachua (12 from the site) plus Lee certificates of two tax years, so facets and ranges have something to tell apart. */
const LEE = Array.from({ length: 8 }, (_, i) =>
  sampleCertificate(
    { county_slug: 'lee', county_name: 'Lee', ...(i % 2 === 0 ? { tax_year: 2022, sale_date: '2023-06-01' } : {}) },
    100 + i,
  ),
);

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 12 });
  const writer = createBulkWriter(site.t.runtime.opensearch, {
    index: aliasName(site.t.config.INDEX_PREFIX, 'certificates'),
    refresh: true,
  });
  for (const record of LEE) await writer.add(record.id, record);
  expect((await writer.flush()).failed).toBe(0);
  await rollUp(site.t.runtime.opensearch, site.t.config.INDEX_PREFIX);
});
afterAll(async () => site?.close());

/** Credits left in every bucket of the client (brought up to date first, as a charge does): what a charge takes one from. */
async function creditsLeft(clientId: string): Promise<number> {
  const client = (await getClient(site.t.runtime.sql, clientId))!;
  await site.app.access.ledger.touch((await clientAccount(site.t.runtime.sql, client, 'live')).account, new Date());
  const row = await site.t.runtime.sql.get<{ n: number | null }>('SELECT sum(remaining) AS n FROM credit_balances WHERE client_id = ?', [
    clientId,
  ]);
  return Number(row?.n ?? 0);
}

async function apiKey(clientId: string): Promise<string> {
  const { raw } = await createKey(site.t.runtime.sql, {
    clientId,
    env: 'live',
    prefix: site.t.config.KEY_PREFIX,
    secret: site.t.config.KEY_HASH_SECRET,
  });
  return raw;
}

const facetCount = (html: string, facet: string, label: string): number | null => {
  const list = new RegExp(`data-facet="${facet}">([\\s\\S]*?)</ul>`).exec(html)?.[1] ?? '';
  const m = new RegExp(`>${label}</a> <span class="count" data-count="(\\d+)"`).exec(list);
  return m ? Number(m[1]) : null;
};

describe('/account/explore', () => {
  it('sends a signed-out visitor to sign in, and back here after', async () => {
    const res = await site.app.inject({ method: 'GET', url: '/account/explore?county=lee' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/signin?next=%2Faccount%2Fexplore');
  });

  it('is reached from the short address /explore, its search kept', async () => {
    const res = await site.app.inject({ method: 'GET', url: '/explore?county=lee&status=sold' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/account/explore?county=lee&status=sold');
    expect((await site.app.inject({ method: 'GET', url: '/explore' })).headers.location).toBe('/account/explore');
  });

  it("counts a facet and a range exactly as the API's own read and HTTP answer do, and charges as the API charges", async () => {
    const a = await signedInAccount(site, 'developer');
    const query = 'county=lee&tax_year=2022&face_min=150';
    const before = await creditsLeft(a.client.id);
    const res = await a.browser.get(`/account/explore?${query}`);
    expect(res.statusCode, mainText(res.body)).toBe(200);
    const charged = before - (await creditsLeft(a.client.id));

    // The API's read function with the same parameters (and the facets the page asks for).
    const own = await readCertificateSearch(
      { ...site.t.runtime, registry: site.t.runtime.registry },
      { county: ['lee'], tax_year: [2022], face_min: 150, facets: [...CERTIFICATE_FACETS], limit: 25, offset: 0 },
    );
    expect(own.total).toBeGreaterThan(0);
    expect(Number(/data-total="(\d+)"/.exec(res.body)?.[1])).toBe(own.total);
    for (const bucket of own.facets!.tax_year!) expect(facetCount(res.body, 'tax_year', String(bucket.value))).toBe(bucket.count);
    expect(facetCount(res.body, 'county', 'Lee')).toBe(own.facets!.county!.find((b) => b.value === 'lee')!.count);
    // The range boxes show the result's lowest and highest face amount.
    const faces = LEE.filter((c) => c.tax_year === 2022 && c.face_amount >= 150).map((c) => c.face_amount);
    expect(Number(/data-range="face-min">([\d.]+)</.exec(res.body)?.[1])).toBe(Math.min(...faces));
    expect(Number(/data-range="face-max">([\d.]+)</.exec(res.body)?.[1])).toBe(Math.max(...faces));

    // Over HTTP with a key of the same client: the same total and counts, and one credit a request.
    const key = await apiKey(a.client.id);
    const beforeApi = await creditsLeft(a.client.id);
    const api = await site.app.inject({
      method: 'GET',
      url: `/api/v1/certificates/search?${query}&facets=county,status,tax_year,vendor,redeemed`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(api.statusCode, api.body).toBe(200);
    const body = api.json() as { pagination: { total: number }; facets: Record<string, { value: unknown; count: number }[]> };
    expect(body.pagination.total).toBe(own.total);
    expect(body.facets.status).toEqual(own.facets!.status);
    expect(beforeApi - (await creditsLeft(a.client.id))).toBe(1);
    const charts = [
      '/api/v1/analytics/bid-rates?county=lee&tax_year=2022',
      '/api/v1/analytics/redemption-curve?county=lee&tax_year=2022&face_min=150',
    ];
    for (const url of charts) {
      const r = await site.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      expect(r.statusCode, r.body).toBe(200);
    }

    // The first page: the search and its three charts, 1 credit each, and the page says so.
    expect(charged).toBe(4);
    expect(mainText(res.body)).toContain('This view cost 4 credits');
    // A later page: the search alone.
    const page2Before = await creditsLeft(a.client.id);
    const page2 = await a.browser.get(`/account/explore?${query}&offset=1&limit=1`);
    expect(page2.statusCode).toBe(200);
    expect(page2Before - (await creditsLeft(a.client.id))).toBe(1);
    expect(mainText(page2.body)).toContain('This view cost 1 credit');
  });

  it('shows the histogram the API answers for the scope, in a table under the chart', async () => {
    const a = await signedInAccount(site, 'developer');
    const res = await a.browser.get('/account/explore?county=lee');
    const key = await apiKey(a.client.id);
    const api = await site.app.inject({
      method: 'GET',
      url: '/api/v1/analytics/bid-rates?county=lee',
      headers: { authorization: `Bearer ${key}` },
    });
    const histogram = (api.json() as { data: { histogram: { rate: number; certificates: number }[] } }).data.histogram;
    expect(histogram.length).toBeGreaterThan(0);
    const table = /id="table-bid-rates"[\s\S]*?<\/table>/.exec(res.body)![0];
    const rows = [...table.matchAll(/data-x="([\d.]+)" data-y="(\d+)"/g)].map((m) => ({ rate: Number(m[1]), certificates: Number(m[2]) }));
    expect(rows).toEqual(histogram.map((b) => ({ rate: b.rate, certificates: b.certificates })));
  });

  it("answers a bad parameter with a 400 page naming it in the API's words, and charges nothing", async () => {
    const a = await signedInAccount(site, 'developer');
    const key = await apiKey(a.client.id);
    for (const query of ['face_min=lots', 'county=atlantis', 'face_min=900&face_max=100', 'colour=red']) {
      const before = await creditsLeft(a.client.id);
      const res = await a.browser.get(`/account/explore?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(await creditsLeft(a.client.id)).toBe(before);
      const api = await site.app.inject({
        method: 'GET',
        url: `/api/v1/certificates/search?${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(api.statusCode).toBe(400);
      const envelope = api.json() as { error: { message: string; details: { issues: { parameter: string }[] } } };
      const shown = mainText(res.body).replaceAll('&quot;', '"');
      expect(shown).toContain(envelope.error.message);
      expect(shown).toContain(envelope.error.details.issues[0]!.parameter);
    }
  });

  it('saves the search with the same params as the saved searches page stores them', async () => {
    const a = await signedInAccount(site, 'developer');
    await a.browser.get('/account/explore?county=lee&tax_year=2022&face_min=150&sort=face_desc');
    const search = /name="search" value="([^"]*)"/.exec(a.browser.body)![1]!.replaceAll('&amp;', '&');
    expect(search).toBe('county=lee&tax_year=2022&face_min=150');
    const res = await a.browser.post('/account/explore/save', { name: 'Lee 2022', search });
    expect(res.statusCode, mainText(res.body)).toBe(303);
    const { rows } = await listSavedSearches(site.t.runtime.sql, a.client.id, { limit: 10, offset: 0 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Lee 2022', params: { county: ['lee'], tax_year: [2022], face_min: 150 } });
  });

  it('quotes a chosen day and adds the certificate to a portfolio', async () => {
    const a = await signedInAccount(site, 'developer');
    const id = LEE[1]!.id;
    const page = await a.browser.get(`/account/explore/certificates/${id}?date=2025-06-01`);
    expect(page.statusCode, mainText(page.body)).toBe(200);
    expect(mainText(page.body)).toContain('As of 1 June 2025');
    expect(mainText(page.body)).toContain('This page cost 5 credits');
    const early = await a.browser.get(`/account/explore/certificates/${id}?date=2001-01-01`);
    expect(early.statusCode).toBe(400);
    expect(mainText(early.body)).toContain('date: must be on or after the sale date');

    await a.browser.get('/account/portfolios');
    expect((await a.browser.post('/account/portfolios', { name: 'Watch list' })).statusCode).toBe(303);
    const pf = (await site.t.runtime.sql.get<{ id: string }>('SELECT id FROM portfolios WHERE client_id = ?', [a.client.id]))!.id;
    await a.browser.get(`/account/explore/certificates/${id}`);
    const added = await a.browser.post(`/account/explore/certificates/${id}/portfolio`, { portfolio: pf });
    expect(added.statusCode, mainText(added.body)).toBe(303);
    expect(added.headers.location).toBe(`/account/portfolios/${pf}?notice=position-added`);
    const held = await site.t.runtime.sql.all<{ certificate_id: string }>(
      'SELECT certificate_id FROM portfolio_positions WHERE portfolio_id = ?',
      [pf],
    );
    expect(held.map((p) => p.certificate_id)).toEqual([id]);
  });

  it("shows a certificate's public events and the client's own, never another client's", async () => {
    const a = await signedInAccount(site, 'developer');
    const b = await signedInAccount(site, 'developer');
    const cert = LEE[3]!;
    const object = { id: cert.id, certificate_number: cert.certificate_number };
    const [publicSeq, ownSeq, othersSeq] = await appendEvents(site.t.runtime.sql, [
      { type: 'certificate.updated', countySlug: 'lee', data: { object, previous: { face_amount: 1 } } },
      {
        type: 'saved_search.match_added',
        countySlug: 'lee',
        data: { object, previous: {}, saved_search: { id: 'ss_aaaaaaaaaaaaaaaa', name: 'mine' } },
        owner: { clientId: a.client.id },
      },
      {
        type: 'saved_search.match_added',
        countySlug: 'lee',
        data: { object, previous: {}, saved_search: { id: 'ss_bbbbbbbbbbbbbbbb', name: 'theirs' } },
        owner: { clientId: b.client.id },
      },
    ]);
    const page = await a.browser.get(`/account/explore/certificates/${cert.id}`);
    const text = mainText(page.body);
    expect(text).toContain(`evt_${publicSeq}`);
    expect(text).toContain(`evt_${ownSeq}`);
    expect(text).not.toContain(`evt_${othersSeq}`);
    const theirs = await b.browser.get(`/account/explore/certificates/${cert.id}`);
    expect(mainText(theirs.body)).not.toContain(`evt_${ownSeq}`);
    expect(mainText(theirs.body)).toContain(`evt_${othersSeq}`);
  });
});
