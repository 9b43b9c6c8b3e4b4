import { CERTIFICATE_STATUSES } from '../../../domain/records.ts';
import { anyOf, type Clause, inclusiveRange, listQuery, namedFilters } from '../../query/filters.ts';
import { placeFilters } from './build-place-filters.ts';
import type { CountsParams } from './params.ts';

/**
 * GET /certificates/counts: one named filter per status, so all seven buckets
 * come back (zeros included) and each count is exact on any number of shards.
 * Pure; fixture-tested in fixtures/queries/certificates-counts/.
 */
export function buildCounts(p: CountsParams): Clause {
  const filters = namedFilters([
    ['county', p.county === undefined ? undefined : anyOf('county_slug', [p.county])],
    ['tax_year', p.tax_year === undefined ? undefined : anyOf('tax_year', [p.tax_year])],
    ['rate', inclusiveRange('interest_rate', p.rate_min, p.rate_max)],
    ...placeFilters(p),
  ]);
  return {
    size: 0,
    track_total_hits: false,
    query: listQuery(undefined, filters),
    aggs: {
      status: { filters: { filters: Object.fromEntries(CERTIFICATE_STATUSES.map((s) => [s, { term: { status: s } }])) } },
    },
  };
}
