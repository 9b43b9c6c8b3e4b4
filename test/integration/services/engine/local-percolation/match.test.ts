import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedSearchQuery } from '../../../../../services/api/routes/saved-searches/percolator-query.ts';
import { readSavedParams } from '../../../../../services/api/routes/saved-searches/read.ts';
import { aliasName } from '../../../../../services/domain/datasets.ts';
import { count } from '../../../../../services/engine/search.ts';
import { countTextSearches, LoadCounter } from '../../../../../services/engine/local-percolation/load-counts.ts';
import { matchSavedSearches } from '../../../../../services/engine/local-percolation/match.ts';
import { compiledSavedSearches } from '../../../../../services/engine/local-percolation/stored-searches.ts';
import { EngineError } from '../../../../../services/engine/search.ts';
import { sharedTextMatches, textMatches } from '../../../../../services/engine/text-matches.ts';
import { countSavedSearchMatches } from '../../../../../services/engine/saved-search-counts.ts';
import { ensureSavedSearchIndex, percolate, putSavedSearchQuery } from '../../../../../services/engine/saved-search-index.ts';
import { type CertificatesApi, openCertificatesApi } from '../../api/routes/certificates/seed.ts';

/**
 * The worker's judgement of saved searches is the engine's: the same documents matched against
 * the same stored queries give the same searches, whether the worker decides a clause or leaves it
 * to the percolator. The documents are the seed's and variants at every edge the worker judges
 * (a face between two cents, a bound day, a name with an accent or longer than the engine indexes,
 * a missing field), and the searches cover every filter of /certificates/search.
 */

const SEARCHES: Record<string, unknown>[] = [
  {},
  { county: 'broward' },
  { county: ['alachua', 'duval'], status: 'sold,advertised' },
  { tax_year: '2021,2022', redeemed: false },
  { redeemed: true },
  { holder: 'acme tax fund' },
  { holder: 'Smith and Jones' },
  { holder: 'tax' },
  { vendor: 'LIENPORT,certbid' },
  { vendor: 'lienport' },
  { face_min: 300, face_max: '700.25' },
  { face_min: '300.005' },
  { face_max: 299.999 },
  { face_min: '700.2549' },
  { face_max: '1.0049' },
  { sale_after: '2023-06-01', sale_before: '2023-09-30' },
  { deed_eligible_by: '2025-04-01', status: 'sold' },
  { expires_before: '2030-01-01' },
  { query: 'Nunez' },
  { query: 'Nunez', status: 'sold' },
  { query: 'Nunez', county: ['alachua', 'broward'], face_max: 700 },
  { query: 'oak grove holdings', county: 'miami-dade', face_min: 100 },
  { query: 'oak grove holdings' },
  { query: '2021-00013' },
];

let api: CertificatesApi;
const prefix = () => api.t.config.INDEX_PREFIX;
let docs: Record<string, unknown>[];

/** A seed document with some fields changed, under a new id. */
function variant(base: Record<string, unknown>, n: number, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...base, id: `cert_${String(n).padStart(20, 'f')}`, ...fields };
}

beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  const client = api.t.runtime.opensearch;
  await ensureSavedSearchIndex(client, prefix(), 0);
  const registry = api.t.runtime.registry;
  for (const [n, given] of SEARCHES.entries())
    await putSavedSearchQuery(
      client,
      prefix(),
      savedSearchQuery({ id: `ss_local${String(n).padStart(2, '0')}`, revision: 1, params: readSavedParams(registry, given) }),
    );
  const all = await client.search({
    index: aliasName(prefix(), 'certificates'),
    body: { size: 1000, query: { match_all: {} }, sort: [{ id: 'asc' }] },
  });
  const seed = (all.body.hits.hits as { _source: Record<string, unknown> }[]).map((h) => h._source);
  const base = seed.find((d) => d.county_slug === 'broward' && d.status === 'sold')!;
  const edges = [
    { face_amount: 300 },
    { face_amount: 299.99 },
    { face_amount: 300.004 },
    { face_amount: 300.005 },
    { face_amount: 700.25 },
    { face_amount: 700.254 },
    { face_amount: 700.255 },
    { face_amount: 1.005 },
    { face_amount: 2.675 },
    { holder_name: 'ACME TAX FUND III LLC' },
    { holder_name: 'Acmé Tax Fund' },
    { holder_name: `${'X'.repeat(520)} ACME TAX FUND` },
    { holder_name: null },
    { holder_name: 'SMITH & JONES, L.L.C.' },
    { vendor: 'LienPort' },
    { vendor: 'LIENPORT' },
    { sale_date: '2023-06-01' },
    { sale_date: '2023-05-31' },
    { sale_date: '2023-09-30' },
    { sale_date: '2023-10-01' },
    { redeemed: true, status: 'redeemed' },
    { tax_deed_application_date: '2024-05-01', sale_date: '2020-06-01' },
    { tax_deed_application_date: null, sale_date: '2020-06-01' },
    { status: 'advertised', county_slug: 'duval' },
  ];
  docs = [...seed, ...edges.map((fields, n) => variant(base, n, fields))];
});
afterAll(async () => api?.close());

function scopeOf(list: readonly Record<string, unknown>[]) {
  return {
    counties: [...new Set(list.map((d) => d.county_slug as string))],
    taxYears: [...new Set(list.map((d) => d.tax_year as number))],
    statuses: [...new Set(list.map((d) => d.status as string))],
  };
}

const sorted = (m: Map<string, number[]>) => Object.fromEntries([...m].map(([id, slots]) => [id, [...slots].sort((a, b) => a - b)]).sort());

describe('saved searches judged by the worker', () => {
  it('match the documents the percolator matches, every search and every edge', async () => {
    const client = api.t.runtime.opensearch;
    const scope = scopeOf(docs);
    const engine = await percolate(client, prefix(), docs, scope);
    const local = await matchSavedSearches(client, prefix(), docs, scope);
    expect(sorted(local)).toEqual(sorted(engine));
    // Every search but the empty one matches something and not everything.
    for (const [n] of SEARCHES.entries()) {
      const id = `ss_local${String(n).padStart(2, '0')}`;
      expect(engine.get(id)?.length ?? 0, id).toBeGreaterThan(0);
      if (n > 0) expect(engine.get(id)!.length, id).toBeLessThan(docs.length);
    }
  });

  it('count a first load as the engine counts the county and year: the worker judges, the engine says what each text matches', async () => {
    const client = api.t.runtime.opensearch;
    const alias = aliasName(prefix(), 'certificates');
    const indexed = docs.filter((d) => !(d.id as string).startsWith('cert_ffff'));
    const pairs = [...new Set(indexed.map((d) => `${d.county_slug}|${d.tax_year}`))];
    expect(pairs.length).toBeGreaterThan(3);
    const searches = await compiledSavedSearches(client, prefix());
    let decided = 0;
    let byText = 0;
    for (const pair of pairs) {
      const [county, year] = [pair.split('|')[0]!, Number(pair.split('|')[1])];
      const counter = new LoadCounter(searches, { countySlug: county, taxYear: year });
      for (const d of indexed) if (d.county_slug === county && d.tax_year === year) counter.add(d);
      const loaded = counter.finish();
      const texts = new Map([...loaded.texts].map(([key, group]) => [key, group.clause]));
      const fromTexts = countTextSearches(loaded, await sharedTextMatches(client, alias, texts, { countySlug: county, taxYear: year }));
      const fromEngine = await countSavedSearchMatches(client, alias, loaded.engine, county, year);
      const all = new Map([...loaded.counts, ...fromTexts, ...fromEngine]);
      // Each search's count is its own query's count over the county and year (0s left out).
      for (const s of searches) {
        const own = await count(client, alias, {
          bool: { filter: [s.query, { term: { county_slug: county } }, { term: { tax_year: year } }] },
        });
        expect(all.get(s.id) ?? 0, `${s.id} ${pair}`).toBe(own);
        if (own > 0) expect(all.get(s.id)).toBeGreaterThan(0);
      }
      decided += loaded.counts.size;
      byText += fromTexts.size;
      // Nothing here needs the engine's own count: every search is judged whole or by its text.
      expect(loaded.engine).toEqual([]);
    }
    expect(decided).toBeGreaterThan(pairs.length);
    expect(byText).toBeGreaterThan(0);
  });

  it('give each text every id it matches, page after page', async () => {
    const client = api.t.runtime.opensearch;
    const alias = aliasName(prefix(), 'certificates');
    const broad = { match_all: {} };
    const one = docs.find((d) => !(d.id as string).startsWith('cert_ffff'))!;
    const scope = { countySlug: one.county_slug as string, taxYear: one.tax_year as number };
    const matched = await textMatches(client, alias, new Map([['all', { clause: broad, scopes: [scope] }]]), 2);
    const expected = docs
      .filter((d) => !(d.id as string).startsWith('cert_ffff') && d.county_slug === one.county_slug && d.tax_year === one.tax_year)
      .map((d) => d.id as string)
      .sort();
    expect(expected.length).toBeGreaterThan(2);
    expect(matched.get('all')).toEqual(expected);
  });

  it('answer loads asking at once in one round, each with every id of its own county and year', async () => {
    const client = api.t.runtime.opensearch;
    const alias = aliasName(prefix(), 'certificates');
    const indexed = docs.filter((d) => !(d.id as string).startsWith('cert_ffff'));
    const scopes = [...new Set(indexed.map((d) => `${d.county_slug}|${d.tax_year}`))].map((pair) => ({
      countySlug: pair.split('|')[0]!,
      taxYear: Number(pair.split('|')[1]),
    }));
    const texts = new Map<string, Record<string, unknown>>([
      ['all', { match_all: {} }],
      ['sold', { term: { status: 'sold' } }],
    ]);
    const together = await Promise.all(scopes.map((scope) => sharedTextMatches(client, alias, texts, scope)));
    for (const [i, scope] of scopes.entries()) {
      const alone = await textMatches(client, alias, new Map([...texts].map(([key, clause]) => [key, { clause, scopes: [scope] }])));
      const own = (ids: readonly string[]) =>
        ids.filter((id) => indexed.some((d) => d.id === id && d.county_slug === scope.countySlug && d.tax_year === scope.taxYear)).sort();
      for (const key of texts.keys()) {
        expect(own(together[i]!.get(key)!), `${key} ${JSON.stringify(scope)}`).toEqual([...alone.get(key)!].sort());
        expect(alone.get(key)!.length).toBe(own(alone.get(key)!).length);
      }
      expect(alone.get('all')!.length).toBe(
        indexed.filter((d) => d.county_slug === scope.countySlug && d.tax_year === scope.taxYear).length,
      );
    }
  });

  it('fail with a typed engine error when the engine refuses a text, never with ids missing', async () => {
    const client = api.t.runtime.opensearch;
    const alias = aliasName(prefix(), 'certificates');
    const scope = { countySlug: 'broward', taxYear: 2023 };
    const texts = new Map([
      ['fine', { clause: { match_all: {} }, scopes: [scope] }],
      // Well formed, refused by the shard: a date the field cannot read.
      ['refused', { clause: { range: { sale_date: { gte: 'not a date' } } }, scopes: [scope] }],
    ]);
    const failed = await textMatches(client, alias, texts).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(EngineError);
    expect((failed as EngineError).reason).toBe('refused');
  });
});
