import type { SavedSearch } from '../../../control/feed/saved-searches.ts';
import type { SavedSearchQuery } from '../../../engine/saved-search-index.ts';
import { buildCertificateSearch } from '../certificates/build-search.ts';
import type { CertificateSearchFilters, CertificateSearchParams } from '../certificates/params.ts';

/**
 * A saved search as the engine percolates it: the query /certificates/search builds of the same
 * filters (one builder, so a change to what a search selects changes both), with the counties,
 * tax years and statuses it names, which narrow the searches a percolation asks. `params` are stored already read by the
 * search's schema (readSavedParams), so they build as a request's would.
 */
export function savedSearchQuery(search: Pick<SavedSearch, 'id' | 'revision' | 'params'>): SavedSearchQuery {
  const filters = search.params as CertificateSearchFilters;
  return {
    id: search.id,
    revision: search.revision,
    query: buildCertificateSearch(filters as CertificateSearchParams).query as Record<string, unknown>,
    ...(filters.county ? { counties: filters.county } : {}),
    ...(filters.tax_year ? { taxYears: filters.tax_year } : {}),
    ...(filters.status ? { statuses: filters.status } : {}),
  };
}
