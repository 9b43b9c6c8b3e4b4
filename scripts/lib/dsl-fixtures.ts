import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sortClause } from '../../services/engine/paging/sort.ts';
import { buildBidRates } from '../../services/api/routes/analytics/bid-rates/build-query.ts';
import { BidRateParams } from '../../services/api/routes/analytics/bid-rates/params.ts';
import { buildSalesQuery } from '../../services/api/routes/certificate-sales/build-query.ts';
import { SalesSearchParams } from '../../services/api/routes/certificate-sales/params.ts';
import {
  buildOtherCertificates,
  type OtherCertificatesInput,
} from '../../services/api/routes/certificate-quotes/build-other-certificates.ts';
import { buildByParcel } from '../../services/api/routes/certificates/build-by-parcel.ts';
import { buildCounts } from '../../services/api/routes/certificates/build-counts.ts';
import { buildCertificateSearch } from '../../services/api/routes/certificates/build-search.ts';
import { buildGeoGrid } from '../../services/api/routes/certificates/build-geo-grid.ts';
import { ByParcelParams, CertificateSearchParams, CountsParams, GeoGridParams } from '../../services/api/routes/certificates/params.ts';
import { buildHoldersQuery } from '../../services/api/routes/holders/build-query.ts';
import { HoldersSearchParams } from '../../services/api/routes/holders/params.ts';
import { buildLandsQuery } from '../../services/api/routes/lands-available/build-query.ts';
import { LandsSearchParams } from '../../services/api/routes/lands-available/params.ts';
import { buildGroupDetails } from '../../services/api/routes/analytics/holders/build-details.ts';
import {
  buildGroupScan,
  buildGroupTerms,
  buildRateScan,
  groupTermsSlices,
  ID_SLICES,
} from '../../services/api/routes/analytics/holders/build-scan.ts';
import { HolderGroupsParams } from '../../services/api/routes/analytics/holders/params.ts';
import { buildFirstSale, buildRedemptionCounts } from '../../services/api/routes/analytics/redemption/build-query.ts';
import { ExpectedYieldParams, RedemptionCurveParams } from '../../services/api/routes/analytics/redemption/params.ts';
import { pagePlanDsl } from './page-plan-dsl.ts';

/**
 * The expected-DSL pairs under fixtures/queries/<folder>/: <case>.params.json (what a
 * client sends, as native values, or a page-plan request's inputs) and <case>.dsl.json
 * (the Query DSL the builder must produce). A new filter or sort is a new pair.
 *
 * Tests only read and compare these files. Writing the .dsl.json files is the job of
 * scripts/write-query-fixtures.ts (npm run fixtures:write), run by hand after a builder
 * changes on purpose; the diff it leaves is then reviewed like any code change.
 */

export interface DslFixture {
  name: string;
  params: unknown;
  dsl: unknown;
}

export const QUERY_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/queries/', import.meta.url));

/** The case names of one folder, sorted. */
export function fixtureNames(folder: string): string[] {
  const names = readdirSync(`${QUERY_FIXTURES_DIR}${folder}/`)
    .filter((f) => f.endsWith('.params.json'))
    .map((f) => f.slice(0, -'.params.json'.length))
    .sort();
  if (names.length === 0) throw new Error(`no fixtures under fixtures/queries/${folder}`);
  return names;
}

export function readFixture(folder: string, file: string): unknown {
  return JSON.parse(readFileSync(`${QUERY_FIXTURES_DIR}${folder}/${file}`, 'utf8')) as unknown;
}

/** Every pair of one folder, read, never written. */
export function dslFixtures(folder: string): DslFixture[] {
  return fixtureNames(folder).map((name) => ({
    name,
    params: readFixture(folder, `${name}.params.json`),
    dsl: readFixture(folder, `${name}.dsl.json`),
  }));
}

/**
 * How each folder's DSL is built from its params file: parameters go through the
 * route's own schema first (defaults, trimming, lower-casing), exactly as a request's
 * do, and sorts are rendered as the engine receives them.
 */
export const FIXTURE_DSL: Record<string, (params: unknown) => unknown> = {
  // Holder groups (who the competition is): the terms scan, the first page of the exact (group, name)
  // scan (name_asc, and the fallback), the rate scan (median_rate_asc only), the page pass for two groups.
  'analytics-holders': (params) => {
    const p = HolderGroupsParams.parse(params);
    return {
      terms: groupTermsSlices(p).map((slice) => buildGroupTerms(p, slice)),
      pairs: buildGroupScan(p, ID_SLICES[1]!, undefined),
      ...(p.sort === 'median_rate_asc' ? { rates: buildRateScan(p, ID_SLICES[1]!, undefined) } : {}),
      details: buildGroupDetails(p, ['grp_00000000000000000001', 'grp_00000000000000000002']),
    };
  },
  'certificates-search': (params) => {
    const plan = buildCertificateSearch(CertificateSearchParams.parse(params));
    return {
      query: plan.query,
      sort: sortClause(plan.sort),
      ...(plan.distanceSort ? { distance_sort: plan.distanceSort } : {}),
      ...(plan.facetCounts ? { facet_counts: plan.facetCounts } : {}),
    };
  },
  'certificates-geo-grid': (params) => buildGeoGrid(GeoGridParams.parse(params)),
  'certificates-by-parcel': (params) => {
    const plan = buildByParcel(ByParcelParams.parse(params));
    return { query: plan.query, sort: sortClause(plan.sort) };
  },
  'certificates-counts': (params) => buildCounts(CountsParams.parse(params)),
  // The deed-application estimate's other certificates: the input is the certificate read by id
  // and the day, not query parameters.
  'certificates-deed-estimate': (params) => {
    const plan = buildOtherCertificates(params as OtherCertificatesInput);
    return { query: plan.query, sort: sortClause(plan.sort), size: plan.size };
  },
  'certificate-sales': (params) => {
    const built = buildSalesQuery(SalesSearchParams.parse(params));
    return { query: built.query, sort: sortClause(built.sort) };
  },
  holders: (params) => {
    const built = buildHoldersQuery(HoldersSearchParams.parse(params));
    return { query: built.query, sort: sortClause(built.sort) };
  },
  'lands-available': (params) => {
    const built = buildLandsQuery(LandsSearchParams.parse(params));
    return { query: built.query, sort: sortClause(built.sort) };
  },
  'page-plan': pagePlanDsl,
  'analytics-bid-rates': (params) => buildBidRates(BidRateParams.parse(params)),
  // A scope and its day (every case names as_of: the default, today, would change the DSL daily):
  // the curve's multi-search, the expected yield's (which adds the winning rates), and the first sale's.
  'analytics-redemption': (params) => {
    const curve = RedemptionCurveParams.parse(params);
    const yields = ExpectedYieldParams.parse(params);
    if (curve.as_of === undefined) throw new Error('a redemption fixture names its as_of');
    return {
      curve: buildRedemptionCounts(curve, curve.as_of, { rates: false }),
      expected_yield: buildRedemptionCounts(yields, curve.as_of, { rates: true }),
      first_sale: buildFirstSale(curve),
    };
  },
};

/** A fixture file's text: two-space JSON and a final newline, so a regenerated file diffs cleanly. */
export function fixtureText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
