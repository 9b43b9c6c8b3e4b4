import { firstSaleDateNotExpiredBefore, lastSaleDateDeedEligibleBy } from '../../../domain/certificate-timeline.ts';
import { normalizeKey } from '../../../domain/ids.ts';
import { CERTIFICATE_STATUSES } from '../../../domain/records.ts';
import { type FacetField, facetSearches } from '../../query/facets.ts';
import { anyOf, anyOfIgnoringCase, type Clause, inclusiveRange, listQuery, type NamedFilter, namedFilters } from '../../query/filters.ts';
import type { SortKey } from '../../../engine/paging/sort.ts';
import { mustRead, readLatLon } from '../../params/geo.ts';
import { placeFilters } from './build-place-filters.ts';
import { MAX_GROUPS } from '../../query/group-terms.ts';
import { allWordsAcross, allWordsWithTypos, containsMatch, exactKey } from '../../query/text.ts';
import type { CertificateFacet, CertificateSearchParams, CertificateSort } from './params.ts';

/**
 * GET /certificates/search: parsed parameters -> Query DSL. Pure (no client,
 * clock or config); fixture-tested in fixtures/queries/certificates-search/.
 */

export interface CertificateSearchPlan {
  query: Clause;
  sort: SortKey[];
  /** The size-0 searches counting the facets (facets.ts facetSearches); present only when facets were asked for. */
  facetCounts?: Clause[];
  facets: FacetField[];
  /**
   * distance_asc only: the DSL sort by distance from near, then id. A distance is computed per
   * document, not stored, so the page engine's counted cuts (engine/paging) cannot bound it: such
   * a page is one from+size search within the index's result window (read.ts).
   */
  distanceSort?: Clause[];
}

const FLORIDA_COUNTIES = 67;
/** Tax years a record may carry (1990-2100, as the record schema bounds them). */
const TAX_YEARS = 2100 - 1990 + 1;
/**
 * vendor is free-form (spec 2.2.2), so its values are not a closed set; sale
 * channels number a handful. 1,000 is far above any real count and costs nothing
 * unused; it stays well inside the engine's max_buckets.
 */
const VENDORS = 1000;
/** The holder_group facet lists the largest groups of the scope, this many (the rest are /analytics/holders'). */
const HOLDER_GROUPS_LISTED = 25;

export const CERTIFICATE_FACET_FIELDS: Record<CertificateFacet, FacetField> = {
  county: { name: 'county', field: 'county_slug', kind: 'string', size: FLORIDA_COUNTIES },
  status: { name: 'status', field: 'status', kind: 'string', size: CERTIFICATE_STATUSES.length },
  tax_year: { name: 'tax_year', field: 'tax_year', kind: 'integer', size: TAX_YEARS },
  vendor: { name: 'vendor', field: 'vendor', kind: 'string', size: VENDORS },
  redeemed: { name: 'redeemed', field: 'redeemed', kind: 'boolean', size: 2 },
  // Thousands of groups: the largest few, counted past every group so they are the true largest.
  holder_group: {
    name: 'holder_group',
    field: 'holder_group_id',
    kind: 'string',
    size: HOLDER_GROUPS_LISTED,
    shardSize: MAX_GROUPS,
    label: 'holder_group_name',
  },
};

const TIE_BREAK = { field: 'id', order: 'asc' } as const satisfies SortKey;

/** Every order ends with the id, so pages never overlap or skip. */
export const CERTIFICATE_SORT_KEYS: Record<CertificateSort, SortKey[]> = {
  // With no query every score is equal, so relevance falls back to the default order.
  relevance: [{ score: true, order: 'desc' }, { field: 'sale_date', order: 'desc' }, TIE_BREAK],
  // face_amount.sort is a double copy of the scaled_float: the engine's point-based sort
  // shortcut returns wrong top hits on scaled_float (opensearch-project/OpenSearch#12433, #17833).
  face_desc: [{ field: 'face_amount.sort', order: 'desc' }, TIE_BREAK],
  face_asc: [{ field: 'face_amount.sort', order: 'asc' }, TIE_BREAK],
  year_newest: [{ field: 'tax_year', order: 'desc' }, { field: 'sale_date', order: 'desc' }, TIE_BREAK],
  sale_date_desc: [{ field: 'sale_date', order: 'desc' }, TIE_BREAK],
  sale_newest: [{ field: 'sale_date', order: 'desc' }, TIE_BREAK],
  rate_asc: [{ field: 'interest_rate', order: 'asc' }, TIE_BREAK],
  rate_desc: [{ field: 'interest_rate', order: 'desc' }, TIE_BREAK],
  // Not a stored key: the plan's distanceSort orders these pages; the id alone stays the page engine's total order.
  distance_asc: [TIE_BREAK],
};

/** Nearest first in meters along the great circle (arc), the id breaking ties. */
export function distanceSort(near: string): Clause[] {
  const origin = mustRead(readLatLon, near);
  return [
    { _geo_distance: { location: { lat: origin.lat, lon: origin.lon }, order: 'asc', unit: 'm', distance_type: 'arc' } },
    { [TIE_BREAK.field]: { order: 'asc' } },
  ];
}

/**
 * Free text over the identifying and descriptive fields. An exact
 * certificate number or parcel id (punctuation ignored) scores far above any text
 * match; otherwise every word must appear in owner, address or legal description,
 * or every word in the owner's name with a typo allowed.
 */
export function certificateText(query: string): Clause {
  const key = normalizeKey(query);
  const exact = key.length > 0 ? [exactKey('certificate_number_normalized', key), exactKey('parcel_id_normalized', key)] : [];
  return {
    bool: {
      should: [
        ...exact,
        allWordsAcross(query, ['owner_name^3', 'site_address_full^2', 'legal_description']),
        allWordsWithTypos('owner_name', query),
      ],
      minimum_should_match: 1,
    },
  };
}

export function certificateFilters(p: CertificateSearchParams): NamedFilter[] {
  return namedFilters([
    ['county', p.county && anyOf('county_slug', p.county)],
    ['status', p.status && anyOf('status', p.status)],
    ['tax_year', p.tax_year && anyOf('tax_year', p.tax_year)],
    ['holder', p.holder === undefined ? undefined : containsMatch('holder_name.contains', p.holder)],
    ['holder_group', p.holder_group && anyOf('holder_group_id', p.holder_group)],
    ['vendor', p.vendor && anyOfIgnoringCase('vendor', p.vendor)],
    ['face', inclusiveRange('face_amount', p.face_min, p.face_max)],
    ['sale_date', inclusiveRange('sale_date', p.sale_after, p.sale_before)],
    ['redeemed', p.redeemed === undefined ? undefined : anyOf('redeemed', [p.redeemed])],
    ['deed_eligible_by', p.deed_eligible_by === undefined ? undefined : deedEligibleBy(p.deed_eligible_by)],
    ['expires_before', p.expires_before === undefined ? undefined : expiresBefore(p.expires_before)],
    ['rate', inclusiveRange('interest_rate', p.rate_min, p.rate_max)],
    ...placeFilters(p),
  ]);
}

/** A deed application is allowed from April 1 of the sale year + 2, so by a day means a sale year at most so far back. */
function deedEligibleBy(day: string): Clause {
  return { range: { sale_date: { lte: lastSaleDateDeedEligibleBy(day) } } };
}

/**
 * Still able to expire (neither redeemed nor cancelled, no deed application on
 * record, which stops the 7 years of s. 197.482) and sold early enough to expire
 * before the day. The bound is computed from the statute's dates
 * (services/domain/certificate-timeline.ts), so the timeline and the filter agree.
 */
function expiresBefore(day: string): Clause {
  return {
    bool: {
      filter: [{ range: { sale_date: { lt: firstSaleDateNotExpiredBefore(day) } } }],
      must_not: [{ terms: { status: ['redeemed', 'cancelled'] } }, { exists: { field: 'tax_deed_application_date' } }],
    },
  };
}

export function buildCertificateSearch(p: CertificateSearchParams): CertificateSearchPlan {
  const text = p.query === undefined ? undefined : certificateText(p.query);
  const filters = certificateFilters(p);
  const sort = p.sort ?? (p.query !== undefined ? 'relevance' : 'sale_date_desc');
  const facets = [...new Set(p.facets ?? [])].map((f) => CERTIFICATE_FACET_FIELDS[f]);
  return {
    query: listQuery(text, filters),
    sort: CERTIFICATE_SORT_KEYS[sort],
    ...(sort === 'distance_asc' && p.near !== undefined ? { distanceSort: distanceSort(p.near) } : {}),
    ...(facets.length > 0 ? { facetCounts: facetSearches(facets, text, filters) } : {}),
    facets,
  };
}
