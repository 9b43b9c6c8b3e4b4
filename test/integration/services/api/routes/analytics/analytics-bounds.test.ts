import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCertificates } from '../certificates/seed.ts';
import { openSeededApi, type SeededApi } from './seeded-api.ts';

/**
 * What one credit buys on the analytic routes: a holder-group page of at most 50 groups, and a
 * scope of at most the configured number of certificates (100,000 for holder groups and
 * 2,000,000 for bid rates by default; 100 here, on 240 seeded certificates, 60 per county). A
 * wider scope is refused before any aggregation with a 400 naming the parameters that narrow
 * it; the limits are in the OpenAPI document.
 */
let api: SeededApi;
let app: FastifyInstance;
let auth: Record<string, string>;

beforeAll(async () => {
  // Without rollups: the caps bound scans, and a scope the rollups answer costs the same at any size.
  api = await openSeededApi(
    import.meta.url,
    seedCertificates(240),
    { HOLDER_GROUPS_MAX_SCOPE: '100', BID_RATES_MAX_SCOPE: '100' },
    { rollups: false },
  );
  ({ app, auth } = api);
});
afterAll(async () => {
  await api?.close();
});

interface Answer {
  status: number;
  body: { error?: { code: string; message: string; details?: { issues?: { parameter: string; message: string }[] } } };
}
const get = async (url: string): Promise<Answer> => {
  const res = await app.inject({ method: 'GET', url, headers: auth });
  return { status: res.statusCode, body: res.json() };
};
const named = (a: Answer) => a.body.error?.details?.issues?.map((i) => i.parameter);

describe('holder groups', () => {
  it('a page holds at most 50 groups: limit=51 is a 400 naming limit', async () => {
    const refused = await get('/api/v1/analytics/holders?county=alachua&limit=51');
    expect(refused.status).toBe(400);
    expect(refused.body.error?.details?.issues).toEqual([{ parameter: 'limit', message: 'must be an integer from 1 to 50' }]);
    expect((await get('/api/v1/analytics/holders?county=alachua&limit=50')).status).toBe(200);
  });

  it.each(['certificates_desc', 'face_desc', 'name_asc'])(
    'sort=%s: a scope over the cap is a 400 naming county and tax_year',
    async (sort) => {
      for (const scope of ['', '&county=alachua,broward', '&tax_year=2021,2022']) {
        const refused = await get(`/api/v1/analytics/holders?sort=${sort}${scope}`);
        expect(refused.status, scope).toBe(400);
        expect(refused.body.error?.code).toBe('bad_request');
        expect(named(refused)).toEqual(['county', 'tax_year']);
        expect(refused.body.error?.details?.issues?.[0]?.message).toMatch(
          /^the scope holds \d+ certificates; one call reads at most 100: narrow it with county or tax_year$/,
        );
      }
      for (const scope of ['&county=alachua', '&county=alachua,broward&tax_year=2021'])
        expect((await get(`/api/v1/analytics/holders?sort=${sort}${scope}`)).status, scope).toBe(200);
    },
  );

  it('sort=median_rate_asc reads half as many: one county (60) is over its cap of 50, a county and a year is not', async () => {
    const refused = await get('/api/v1/analytics/holders?sort=median_rate_asc&county=alachua');
    expect(refused.status).toBe(400);
    expect(named(refused)).toEqual(['county', 'tax_year']);
    expect(refused.body.error?.details?.issues?.[0]?.message).toMatch(/one call reads at most 50: narrow it with county or tax_year$/);
    expect((await get('/api/v1/analytics/holders?sort=median_rate_asc&county=alachua&tax_year=2021')).status).toBe(200);
    expect((await get('/api/v1/analytics/holders?sort=certificates_desc&county=alachua')).status).toBe(200);
  });
});

describe('bid rates', () => {
  it('a scope over the cap is a 400 naming county, tax_year and vendor; a narrower one is answered', async () => {
    const refused = await get('/api/v1/analytics/bid-rates');
    expect(refused.status).toBe(400);
    expect(named(refused)).toEqual(['county', 'tax_year', 'vendor']);
    expect(refused.body.error?.message).toMatch(
      /^county: the scope holds \d+ certificates; one call reads at most 100: narrow it with county, tax_year or vendor \(and 2 more problems\)$/,
    );
    expect((await get('/api/v1/analytics/bid-rates?county=miami-dade')).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('shows the page limit and the scope caps', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        { get: { description: string; parameters: { name: string; description?: string; schema: { maximum?: number } }[] } }
      >;
    };
    const holders = doc.paths['/api/v1/analytics/holders']!.get;
    expect(holders.parameters.find((p) => p.name === 'limit')?.schema.maximum).toBe(50);
    expect(holders.parameters.find((p) => p.name === 'county')?.description).toContain('more than 100,000 certificates');
    expect(holders.description).toContain('2 analytic requests in flight');
    expect(doc.paths['/api/v1/analytics/bid-rates']!.get.description).toContain('more than 2,000,000 certificates');
  });
});
