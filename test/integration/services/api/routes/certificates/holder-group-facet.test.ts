import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderGroup, loadHolderAliases } from '../../../../../../services/domain/holder-groups.ts';
import { openSeededApi, type SeededApi } from '../analytics/seeded-api.ts';
import { seedCertificates } from './seed.ts';

type Bucket = { value: string; count: number; label?: string };

// The holder_group filter and facet on a 3-shard index of documents as the indexer writes them
// (each with its holder group): one fund family's spellings counted together, named for people.
describe('GET /api/v1/certificates/search with holder_group', () => {
  const records = seedCertificates(240);
  const aliases = loadHolderAliases();
  let api: SeededApi;

  beforeAll(async () => {
    api = await openSeededApi(import.meta.url, records);
  });
  afterAll(async () => api?.close());

  async function search(qs: string) {
    const res = await api.app.inject({ method: 'GET', url: `/api/v1/certificates/search?${qs}`, headers: api.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { pagination: { total: number }; facets?: Record<string, Bucket[]> };
  }

  it('counts every group with its name, largest first, each count the total of filtering by it', async () => {
    // A group's name is its members' most frequent spelling, ties to the first in byte order, as /analytics/holders names it.
    const names = new Map<string, Map<string, number>>();
    for (const r of records) {
      const g = holderGroup(r, aliases);
      const spellings = names.get(g.holder_group_id) ?? new Map<string, number>();
      spellings.set(g.holder_group_name, (spellings.get(g.holder_group_name) ?? 0) + 1);
      names.set(g.holder_group_id, spellings);
    }
    const expected = new Map(
      [...names].map(([id, spellings]) => {
        const ranked = [...spellings].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
        return [id, { count: ranked.reduce((n, [, c]) => n + c, 0), name: ranked[0]![0] }];
      }),
    );
    const { facets } = await search('facets=holder_group&limit=1');
    const buckets = facets!.holder_group!;
    expect(buckets.length).toBe(Math.min(25, expected.size));
    expect(new Map(buckets.map((b) => [b.value, { count: b.count, name: b.label }]))).toEqual(expected);
    const counts = buckets.map((b) => b.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const b of buckets) expect((await search(`holder_group=${b.value}&limit=1`)).pagination.total, b.label).toBe(b.count);
    // "Acme Tax Fund LLC" and "ACME TAX FUND, L.L.C." are one group.
    const acme = records.filter((r) => /acme/i.test(r.holder_name ?? '') && !r.struck_to_county).length;
    expect(buckets.some((b) => b.count >= acme && /acme/i.test(b.label ?? ''))).toBe(true);
  });

  it('counts over every filter but its own, and takes several groups at once', async () => {
    const { facets } = await search('facets=holder_group&limit=1&status=sold');
    const [a, b] = facets!.holder_group!;
    const narrowed = await search(`status=sold&holder_group=${a!.value}&facets=holder_group&limit=1`);
    // The chosen group's own filter is left out of its facet: the other groups still show.
    expect(narrowed.facets!.holder_group!.map((x) => x.value)).toEqual(facets!.holder_group!.map((x) => x.value));
    expect(narrowed.pagination.total).toBe(a!.count);
    expect((await search(`status=sold&holder_group=${a!.value},${b!.value}&limit=1`)).pagination.total).toBe(a!.count + b!.count);
  });

  it('refuses a value that is not a group id, naming the parameter', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/v1/certificates/search?holder_group=acme', headers: api.auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.issues).toEqual([{ parameter: 'holder_group', message: expect.stringContaining('holder group id') }]);
  });
});
