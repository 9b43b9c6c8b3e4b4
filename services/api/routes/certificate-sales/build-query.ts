import type { PageRequest } from '../../../engine/paging/plan.ts';
import type { SortKey } from '../../../engine/paging/sort.ts';
import type { SalesSearchParams, SaleSort } from './params.ts';

/** What a sales search matches and in what order; readPage fetches the page. Pure: no client, clock or config. */
export type SalesQuery = Pick<PageRequest, 'query' | 'sort'>;

const byCounty: SortKey = { field: 'county_slug', order: 'asc' };
const byId: SortKey = { field: 'id', order: 'asc' };

/**
 * Every order ends with the sale id, unique per document, so pages never overlap
 * or skip. The county comes before it so sales of one day or one year read in
 * county order rather than in the order of their hashed ids.
 */
const SORTS: Record<SaleSort, SortKey[]> = {
  sale_date_desc: [{ field: 'sale_date', order: 'desc' }, byCounty, byId],
  sale_date_asc: [{ field: 'sale_date', order: 'asc' }, byCounty, byId],
  year_newest: [{ field: 'tax_year', order: 'desc' }, byCounty, byId],
  year_oldest: [{ field: 'tax_year', order: 'asc' }, byCounty, byId],
  face_desc: [{ field: 'face_value_offered', order: 'desc' }, byId],
  certificates_desc: [{ field: 'certificates_offered', order: 'desc' }, byId],
};

/** Without sort: newest sale first. */
export const DEFAULT_SALE_SORT: SaleSort = 'sale_date_desc';

export function buildSalesQuery(params: SalesSearchParams): SalesQuery {
  const filter: Record<string, unknown>[] = [];
  if (params.county) filter.push({ terms: { county_slug: params.county } });
  if (params.tax_year) filter.push({ terms: { tax_year: params.tax_year } });
  // The vendor is a code matched as a whole string; case never matters (spec 2.2.2).
  if (params.vendor !== undefined) filter.push({ term: { vendor: { value: params.vendor, case_insensitive: true } } });
  if (params.sale_after !== undefined || params.sale_before !== undefined)
    filter.push({
      range: {
        sale_date: {
          ...(params.sale_after !== undefined ? { gte: params.sale_after } : {}),
          ...(params.sale_before !== undefined ? { lte: params.sale_before } : {}),
        },
      },
    });
  return {
    query: filter.length > 0 ? { bool: { filter } } : { match_all: {} },
    sort: SORTS[params.sort ?? DEFAULT_SALE_SORT],
  };
}
