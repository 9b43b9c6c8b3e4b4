import { describe, expect, it } from 'vitest';
import { type FacetField, facetSearches, readFacets } from '../../../../../services/api/query/facets.ts';
import { anyOf, anyOfIgnoringCase, inclusiveRange, listQuery } from '../../../../../services/api/query/filters.ts';
import { containsKey, containsMatch, escapeWildcard, hasContainsKey } from '../../../../../services/api/query/text.ts';
import { CERTIFICATE_FACET_FIELDS } from '../../../../../services/api/routes/certificates/build-search.ts';
import { CERTIFICATE_STATUSES } from '../../../../../services/domain/records.ts';
import { registry } from '../../../../helpers/registry.ts';

describe('text fragments', () => {
  it('gives one contains key for every spelling of a holder', () => {
    const key = 'smithandjonesllc';
    for (const name of ['Smith & Jones LLC', 'SMITH AND JONES, L.L.C.', 'smith&jones llc', ' Smith  and  Jones-LLC. '])
      expect(containsKey(name)).toBe(key);
    expect(containsKey('Núñez Trust')).toBe('núñeztrust');
    expect(hasContainsKey('*-. ')).toBe(false);
    expect(hasContainsKey('&')).toBe(true);
  });

  it('escapes wildcard characters and never lets user text become a pattern', () => {
    expect(escapeWildcard('a*b?c\\d')).toBe('a\\*b\\?c\\\\d');
    expect(containsMatch('f', 'Acme* ?Fund\\')).toEqual({ wildcard: { f: { value: '*acmefund*' } } });
  });
});

describe('filter fragments', () => {
  it('uses term for one value and terms for several, dropping duplicates', () => {
    expect(anyOf('county_slug', ['duval'])).toEqual({ term: { county_slug: 'duval' } });
    expect(anyOf('tax_year', [2022, 2023, 2022])).toEqual({ terms: { tax_year: [2022, 2023] } });
  });

  it('matches strings ignoring case with term queries only', () => {
    expect(anyOfIgnoringCase('vendor', ['LienPort', 'lienport'])).toEqual({
      term: { vendor: { value: 'lienport', case_insensitive: true } },
    });
    expect(anyOfIgnoringCase('vendor', ['a', 'B'])).toEqual({
      bool: {
        should: [
          { term: { vendor: { value: 'a', case_insensitive: true } } },
          { term: { vendor: { value: 'b', case_insensitive: true } } },
        ],
        minimum_should_match: 1,
      },
    });
  });

  it('builds inclusive ranges with either end, or nothing', () => {
    expect(inclusiveRange('f', 1, undefined)).toEqual({ range: { f: { gte: 1 } } });
    expect(inclusiveRange('f', undefined, 2)).toEqual({ range: { f: { lte: 2 } } });
    expect(inclusiveRange('f', undefined, undefined)).toBeUndefined();
    expect(listQuery(undefined, [])).toEqual({ match_all: {} });
  });
});

describe('facets', () => {
  const facets: FacetField[] = [CERTIFICATE_FACET_FIELDS.county, CERTIFICATE_FACET_FIELDS.tax_year, CERTIFICATE_FACET_FIELDS.redeemed];

  it('reads each facet from the answer that counted it, writing values as their filters accept them', () => {
    const out = readFacets(facets, [
      {
        aggregations: {
          county: {
            buckets: [
              { key: 'duval', doc_count: 5 },
              { key: 'baker', doc_count: 4 },
            ],
          },
          redeemed: {
            buckets: [
              { key: 0, key_as_string: 'false', doc_count: 8 },
              { key: 1, key_as_string: 'true', doc_count: 1 },
            ],
          },
        },
      },
      { aggregations: { tax_year: { buckets: [{ key: 2023, doc_count: 9 }] } } },
    ]);
    expect(out).toEqual({
      county: [
        { value: 'duval', count: 5 },
        { value: 'baker', count: 4 },
      ],
      tax_year: [{ value: 2023, count: 9 }],
      redeemed: [
        { value: false, count: 8 },
        { value: true, count: 1 },
      ],
    });
  });

  it('sizes every facet to hold all the values its field can have, so no shard cuts a value', () => {
    expect(CERTIFICATE_FACET_FIELDS.county.size).toBeGreaterThanOrEqual(registry.counties.length);
    expect(CERTIFICATE_FACET_FIELDS.status.size).toBeGreaterThanOrEqual(CERTIFICATE_STATUSES.length);
    expect(CERTIFICATE_FACET_FIELDS.tax_year.size).toBeGreaterThanOrEqual(2100 - 1990 + 1);
    expect(CERTIFICATE_FACET_FIELDS.vendor.size).toBeGreaterThanOrEqual(registry.platforms.length + 3);
  });
});

describe('facetSearches', () => {
  const county = anyOf('county_slug', ['duval']);
  const redeemed = { term: { redeemed: false } };
  const filters = [
    { name: 'county', clause: county },
    { name: 'redeemed', clause: redeemed },
  ];

  it('counts the unfiltered facets over the search itself, and each filtered facet over every other filter, each in a search of its own', () => {
    const searches = facetSearches([CERTIFICATE_FACET_FIELDS.county, CERTIFICATE_FACET_FIELDS.status], undefined, filters);
    expect(searches).toHaveLength(2);
    expect(searches[0]).toMatchObject({ size: 0, track_total_hits: false, query: listQuery(undefined, filters) });
    expect(Object.keys(searches[0]!.aggs as object)).toEqual(['status']);
    expect(searches[1]).toMatchObject({ size: 0, query: listQuery(undefined, [filters[1]!]) });
    expect(Object.keys(searches[1]!.aggs as object)).toEqual(['county']);
  });

  it('gives every county the same body for the county facet, so the request cache answers it once for all of them', () => {
    const of = (slug: string) =>
      facetSearches([CERTIFICATE_FACET_FIELDS.county, CERTIFICATE_FACET_FIELDS.status], undefined, [
        { name: 'county', clause: anyOf('county_slug', [slug]) },
        filters[1]!,
      ]);
    const [duval, baker] = [of('duval'), of('baker')];
    expect(duval[1]).toEqual(baker[1]);
    expect(duval[0]).not.toEqual(baker[0]);
  });
});
