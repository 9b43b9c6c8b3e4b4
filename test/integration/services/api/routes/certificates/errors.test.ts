import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertificatesApi, openCertificatesApi } from './seed.ts';

/** Every 400 path of certificate search: each problem named with its parameter, in the 2.11 envelope. */
describe('GET /api/v1/certificates/search: 400 bad_request', () => {
  let api: CertificatesApi;

  beforeAll(async () => {
    api = await openCertificatesApi(import.meta.url);
  });
  afterAll(async () => api?.close());

  const long = (n: number) => 'x'.repeat(n);

  const cases: [string, string, RegExp][] = [
    ['querry=smith', 'querry', /unknown parameter \(did you mean query\?\)/],
    ['api_key=abc', 'api_key', /unknown parameter/],
    ['query=a&query=b', 'query', /^takes one value, not several \(given 2: a, b\)$/],
    ['sort=face_desc&sort=face_asc', 'sort', /^takes one value, not several \(given 2: face_desc, face_asc\)$/],
    ['query=', 'query', /must not be empty/],
    ['query=%20%20', 'query', /must not be empty/],
    [`query=${long(201)}`, 'query', /at most 200/],
    [`holder=${long(201)}`, 'holder', /at most 200/],
    ['holder=%2A-.%20', 'holder', /letter or digit/],
    [`vendor=${long(81)}`, 'vendor', /at most 80/],
    ['vendor=a,,b', 'vendor', /empty value/],
    ['county=atlantis', 'county', /unknown county slug "atlantis".*\/api\/v1\/counties/],
    ['county=broward,atlantis', 'county', /unknown county slug "atlantis"/],
    ['county=Miami_Dade!', 'county', /county slug/],
    ['status=pending', 'status', /^must be one of available, advertised, sold, redeemed, lands_available, tax_deed_applied, cancelled$/],
    ['tax_year=twenty', 'tax_year', /^must be a whole year from 1990 to 2100$/],
    ['tax_year=2023.5', 'tax_year', /whole year/],
    ['tax_year=1800', 'tax_year', /1990/],
    ['face_min=-1', 'face_min', /from 0 to 1,000,000,000/],
    ['face_max=ten', 'face_max', /^must be an amount in dollars from 0 to 1,000,000,000/],
    ['face_min=500&face_max=100', 'face_min', /greater than face_max/],
    ['sale_after=2024-07-01&sale_before=2024-06-01', 'sale_after', /greater than sale_before/],
    ['sale_after=2024-02-30', 'sale_after', /real calendar date/],
    ['sale_before=06/01/2024', 'sale_before', /real calendar date/],
    ['sale_after=2024-6-1', 'sale_after', /real calendar date/],
    ['redeemed=yes', 'redeemed', /true or false/],
    ['redeemed=1', 'redeemed', /true or false/],
    ['sort=newest', 'sort', /must be one of relevance, face_desc/],
    ['facets=owner', 'facets', /must be one of county/],
    ['limit=0', 'limit', /^must be an integer from 1 to 500$/],
    ['limit=501', 'limit', /^must be an integer from 1 to 500$/],
    ['limit=ten', 'limit', /^must be an integer from 1 to 500$/],
    ['offset=-1', 'offset', /0 or more/],
    ['offset=1.5', 'offset', /^must be an integer, 0 or more$/],
    ['format=xml', 'format', /json, csv or geojson/],
  ];

  it.each(cases)('%s -> 400 naming %s', async (qs, parameter, message) => {
    const res = await api.get(`/api/v1/certificates/search?${qs}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const { error } = res.json();
    expect(error).toMatchObject({ code: 'bad_request', request_id: res.headers['x-request-id'] });
    expect(error.details.issues).toContainEqual({ parameter, message: expect.stringMatching(message) });
  });

  it('lists every problem at once', async () => {
    const res = await api.get('/api/v1/certificates/search?limit=0&redeemed=maybe&sort=x');
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .error.details.issues.map((i: { parameter: string }) => i.parameter)
        .sort(),
    ).toEqual(['limit', 'redeemed', 'sort']);
  });

  it('an unknown parameter does not hide a bad value beside it: both are named', async () => {
    const res = await api.get('/api/v1/certificates/search?limit=900&bogus=1');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.issues).toEqual([
      { parameter: 'bogus', message: expect.stringMatching(/^unknown parameter; accepted: query, county, /) },
      { parameter: 'limit', message: 'must be an integer from 1 to 500' },
    ]);
    expect(res.json().error.message).toMatch(/^bogus: unknown parameter; .* \(and 1 more problem\)$/);
  });

  it("says each problem in the product's words, never zod's", async () => {
    const cases: [string, { parameter: string; message: string }[]][] = [
      ['limit=abc', [{ parameter: 'limit', message: 'must be an integer from 1 to 500' }]],
      [
        'status=owned',
        [
          {
            parameter: 'status',
            message: 'must be one of available, advertised, sold, redeemed, lands_available, tax_deed_applied, cancelled',
          },
        ],
      ],
      [
        'status=sold,owned&offset=x',
        [
          {
            parameter: 'status',
            message: 'must be one of available, advertised, sold, redeemed, lands_available, tax_deed_applied, cancelled',
          },
          { parameter: 'offset', message: 'must be an integer, 0 or more' },
        ],
      ],
    ];
    for (const [qs, issues] of cases) {
      const res = await api.get(`/api/v1/certificates/search?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.details, qs).toEqual({ issues });
      expect(res.json().error.message, qs).toMatch(new RegExp(`^${issues[0]!.parameter}: `));
    }
  });

  it('accepts the inclusive edges: equal minimum and maximum, limit 1 and 500, offset 0', async () => {
    for (const qs of ['face_min=500&face_max=500', 'sale_after=2024-06-01&sale_before=2024-06-01', 'limit=1', 'limit=500', 'offset=0']) {
      expect((await api.get(`/api/v1/certificates/search?${qs}`)).statusCode, qs).toBe(200);
    }
  });
});
