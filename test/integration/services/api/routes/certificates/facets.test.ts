import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertificatesApi, openCertificatesApi } from './seed.ts';

type Facets = Record<string, { value: string | number | boolean; count: number }[]>;

/** facets= on a 3-shard index: multi-select counts, each equal to the total of the matching filtered search. */
describe('GET /api/v1/certificates/search?facets=', () => {
  let api: CertificatesApi;

  beforeAll(async () => {
    api = await openCertificatesApi(import.meta.url);
  });
  afterAll(async () => api?.close());

  async function search(qs: string) {
    const res = await api.get(`/api/v1/certificates/search?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: unknown[]; pagination: { total: number }; facets?: Facets };
  }

  /** The query string with one parameter replaced (or added). */
  function withParam(qs: string, name: string, value: string): string {
    const params = new URLSearchParams(qs);
    params.set(name, value);
    return params.toString();
  }

  const ALL = 'facets=county,status,tax_year,vendor,redeemed';

  it('lists every value with a non-zero count, most frequent first, written as the filter accepts it', async () => {
    const body = await search(`${ALL}&limit=1`);
    expect(Object.keys(body)).toEqual(['data', 'pagination', 'facets', 'meta']);
    const facets = body.facets!;
    expect(Object.keys(facets)).toEqual(['county', 'status', 'tax_year', 'vendor', 'redeemed']);
    const count = (pick: (r: (typeof api.records)[number]) => unknown) => {
      const m = new Map<unknown, number>();
      for (const r of api.records) m.set(pick(r), (m.get(pick(r)) ?? 0) + 1);
      return m;
    };
    const expected: Record<string, Map<unknown, number>> = {
      county: count((r) => r.county_slug),
      status: count((r) => r.status),
      tax_year: count((r) => r.tax_year),
      vendor: count((r) => r.vendor),
      redeemed: count((r) => r.redeemed),
    };
    for (const [name, buckets] of Object.entries(facets)) {
      expect(new Map(buckets.map((b) => [b.value, b.count])), name).toEqual(expected[name]);
      const counts = buckets.map((b) => b.count);
      expect(counts, name).toEqual([...counts].sort((a, b) => b - a));
      expect(buckets.every((b) => b.count > 0)).toBe(true);
    }
    expect(facets.tax_year!.every((b) => typeof b.value === 'number')).toBe(true);
    expect(facets.redeemed!.map((b) => b.value).sort()).toEqual([false, true]);
  });

  it('counts each field over every filter but its own, and each count equals the filtered total', async () => {
    const scopes = [
      '',
      'county=broward,duval',
      'status=sold&tax_year=2022',
      'county=alachua&vendor=tax_collector&redeemed=false',
      'query=mary%20smith&county=miami-dade,broward&status=sold,redeemed',
      'holder=acme&face_min=300&face_max=900&sale_after=2022-06-01',
      'tax_year=2021,2023&redeemed=true',
    ];
    for (const scope of scopes) {
      const qs = scope ? `${scope}&${ALL}&limit=1` : `${ALL}&limit=1`;
      const { facets } = await search(qs);
      for (const [name, buckets] of Object.entries(facets!)) {
        for (const bucket of buckets) {
          const narrowed = withParam(scope, name, String(bucket.value));
          const { pagination } = await search(narrowed);
          expect(pagination.total, `${scope} -> ${name}=${bucket.value}`).toBe(bucket.count);
        }
        // The field's own filter is ignored: its picker still shows every value the other filters allow.
        const params = new URLSearchParams(scope);
        params.delete(name);
        const { pagination } = await search(params.toString());
        expect(
          buckets.reduce((s, b) => s + b.count, 0),
          `${scope}: ${name} sums to the search without its filter`,
        ).toBe(pagination.total);
      }
    }
  });

  it('omits facets when not asked for, takes a subset, and refuses an unknown facet', async () => {
    expect((await search('limit=1')).facets).toBeUndefined();
    const some = await search('facets=status&facets=redeemed&limit=1');
    expect(Object.keys(some.facets!)).toEqual(['status', 'redeemed']);
    const bad = await api.get('/api/v1/certificates/search?facets=status,owner_name');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues).toEqual([{ parameter: 'facets', message: expect.stringContaining('must be one of') }]);
  });
});
