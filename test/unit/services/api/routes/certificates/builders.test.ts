import { describe, expect, it } from 'vitest';
import { sortClause } from '../../../../../../services/engine/paging/sort.ts';
import { buildByParcel } from '../../../../../../services/api/routes/certificates/build-by-parcel.ts';
import { buildCounts } from '../../../../../../services/api/routes/certificates/build-counts.ts';
import { buildCertificateSearch } from '../../../../../../services/api/routes/certificates/build-search.ts';
import { buildGeoGrid } from '../../../../../../services/api/routes/certificates/build-geo-grid.ts';
import {
  ByParcelParams,
  CertificateSearchParams,
  CountsParams,
  GeoGridParams,
} from '../../../../../../services/api/routes/certificates/params.ts';
import { dslFixtures as fixtureCases } from '../../../../../../scripts/lib/dsl-fixtures.ts';

/**
 * The pure certificate builders against the expected Query DSL kept beside each
 * parameter set. Parameters go through the route's own schema first (defaults,
 * trimming, lower-casing), exactly as a request's do.
 */

describe('certificate search builder', () => {
  const cases = fixtureCases('certificates-search');
  it('has cases', () => expect(cases.length).toBeGreaterThan(10));
  it.each(cases)('$name', ({ params, dsl }) => {
    const plan = buildCertificateSearch(CertificateSearchParams.parse(params));
    expect({
      query: plan.query,
      sort: sortClause(plan.sort),
      ...(plan.distanceSort ? { distance_sort: plan.distanceSort } : {}),
      ...(plan.facetCounts ? { facet_counts: plan.facetCounts } : {}),
    }).toEqual(dsl);
  });
});

describe('certificate by-parcel builder', () => {
  it.each(fixtureCases('certificates-by-parcel'))('$name', ({ params, dsl }) => {
    const plan = buildByParcel(ByParcelParams.parse(params));
    expect({ query: plan.query, sort: sortClause(plan.sort) }).toEqual(dsl);
  });
});

describe('certificate geo-grid builder', () => {
  const cases = fixtureCases('certificates-geo-grid');
  it('has cases', () => expect(cases.length).toBeGreaterThan(1));
  it.each(cases)('$name', ({ params, dsl }) => {
    expect(buildGeoGrid(GeoGridParams.parse(params))).toEqual(dsl);
  });
});

describe('certificate counts builder', () => {
  it.each(fixtureCases('certificates-counts'))('$name', ({ params, dsl }) => {
    expect(buildCounts(CountsParams.parse(params))).toEqual(dsl);
  });
});
