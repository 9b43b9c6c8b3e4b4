import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCertificateSearch } from '../../../../services/api/routes/certificates/read.ts';
import type { CertificateSearchParams } from '../../../../services/api/routes/certificates/params.ts';
import { savedSearchQuery } from '../../../../services/api/routes/saved-searches/percolator-query.ts';
import { readSavedParams } from '../../../../services/api/routes/saved-searches/read.ts';
import { syncSavedSearches } from '../../../../services/api/routes/saved-searches/sync.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { createSavedSearch } from '../../../../services/control/feed/saved-searches.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import {
  ensureSavedSearchIndex,
  percolate,
  putSavedSearchQuery,
  savedSearchIds,
  savedSearchIndexName,
} from '../../../../services/engine/saved-search-index.ts';
import { type CertificatesApi, openCertificatesApi } from '../../services/api/routes/certificates/seed.ts';

/**
 * The percolator answers what the search answers: every certificate of the seed, percolated at
 * once against saved searches covering every filter, matches exactly the searches whose
 * /certificates/search lists it. Alerts that disagreed with /matches would tell an investor of a
 * certificate the search does not show, or keep quiet about one it does.
 */

const SEARCHES: Record<string, unknown>[] = [
  {},
  { county: 'broward' },
  { county: ['alachua', 'duval'], status: 'sold,advertised' },
  { tax_year: 2022, redeemed: false },
  { holder: 'acme tax fund' },
  { holder: 'Smith and Jones' },
  { vendor: 'LIENPORT,certbid' },
  { face_min: 300, face_max: '700.25' },
  { sale_after: '2023-06-01', sale_before: '2023-09-30' },
  { deed_eligible_by: '2025-04-01', status: 'sold' },
  { expires_before: '2030-01-01' },
  { query: 'Nunez' },
  { query: 'Whitacker' },
  { query: 'oak grove holdings', county: 'miami-dade' },
  { query: '2021-00013' },
  { query: 'archer gainesville' },
];

let api: CertificatesApi;
const prefix = () => api.t.config.INDEX_PREFIX;

beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  await ensureSavedSearchIndex(api.t.runtime.opensearch, prefix(), 0);
});
afterAll(async () => api?.close());

/** Every certificate id /certificates/search lists for the filters, all pages. */
async function searched(filters: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await readCertificateSearch(api.t.runtime, { ...filters, limit: 100, offset } as CertificateSearchParams);
    ids.push(...page.rows.map((r) => r.id));
    if (offset + 100 >= page.total) return ids.sort();
  }
}

describe('saved searches in the percolator', () => {
  it('match each certificate exactly when the search lists it, for every filter', async () => {
    const registry = api.t.runtime.registry;
    const read = SEARCHES.map((given, n) => ({ id: `ss_test${String(n).padStart(2, '0')}`, params: readSavedParams(registry, given) }));
    for (const s of read) await putSavedSearchQuery(api.t.runtime.opensearch, prefix(), savedSearchQuery({ ...s, revision: 1 }));

    const all = await api.t.runtime.opensearch.search({
      index: aliasName(prefix(), 'certificates'),
      body: { size: 1000, query: { match_all: {} }, sort: [{ id: 'asc' }] },
    });
    const docs = (all.body.hits.hits as { _source: { id: string } }[]).map((h) => h._source);
    expect(docs).toHaveLength(api.records.length);
    const scope = {
      counties: [...new Set(api.records.map((r) => r.county_slug))],
      taxYears: [...new Set(api.records.map((r) => r.tax_year))],
      statuses: [...new Set(api.records.map((r) => r.status))],
    };
    const matched = await percolate(api.t.runtime.opensearch, prefix(), docs, scope);

    for (const s of read) {
      const expected = await searched(s.params);
      const got = (matched.get(s.id) ?? []).map((slot) => docs[slot]!.id).sort();
      expect(got, JSON.stringify(s.params)).toEqual(expected);
    }
    // The cases mean something: none matches nothing, and none matches everything but the empty one.
    for (const s of read.slice(1)) {
      const count = (matched.get(s.id) ?? []).length;
      expect(count, JSON.stringify(s.params)).toBeGreaterThan(0);
      expect(count, JSON.stringify(s.params)).toBeLessThan(docs.length);
    }
  });

  it('keeps the newest revision of a query whatever order the writes arrive in', async () => {
    const client = api.t.runtime.opensearch;
    const broward = savedSearchQuery({ id: 'ss_revisions', revision: 3, params: { county: ['broward'] } });
    const duval = savedSearchQuery({ id: 'ss_revisions', revision: 2, params: { county: ['duval'] } });
    await putSavedSearchQuery(client, prefix(), broward);
    await putSavedSearchQuery(client, prefix(), duval);
    const stored = await client.get({ index: savedSearchIndexName(prefix()), id: 'ss_revisions' });
    expect((stored.body._source as { query: unknown }).query).toEqual(broward.query);
    expect(stored.body._version).toBe(3);
  });

  it('is rebuilt from the control plane at start: every saved search again, none that is gone', async () => {
    const client = api.t.runtime.opensearch;
    await client.indices.delete({ index: savedSearchIndexName(prefix()) });
    const owner = await createClient(api.t.runtime.sql, { name: 'sync test', plan: 'growth' });
    const kept = [];
    for (const params of [{ county: ['lee'] }, {}])
      kept.push(await createSavedSearch(api.t.runtime.sql, { clientId: owner.id, name: 'kept', params, limit: 10 }));
    const deps = { ...api.t.runtime, logger: api.t.runtime.logger };
    expect(await syncSavedSearches(deps)).toBe(2);
    const stored = async () => {
      const ids: string[] = [];
      for await (const page of savedSearchIds(client, prefix())) ids.push(...page);
      return ids.sort();
    };
    expect(await stored()).toEqual(kept.map((s) => s.id).sort());
    // A query whose search is gone (its delete never reached the engine) goes at the next start.
    await putSavedSearchQuery(client, prefix(), savedSearchQuery({ id: 'ss_gone', revision: 1, params: {} }));
    expect(await syncSavedSearches(deps)).toBe(2);
    expect(await stored()).toEqual(kept.map((s) => s.id).sort());
  });
});
