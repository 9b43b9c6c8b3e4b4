import type { PageRequest } from '../../../engine/paging/plan.ts';
import type { SortKey } from '../../../engine/paging/sort.ts';
import type { LandsSearchParams, LandsSort } from './params.ts';

/** What a lands-available search matches and in what order. Pure: no client, clock or config. */
export type LandsQuery = Pick<PageRequest, 'query' | 'sort'>;

const byId: SortKey = { field: 'id', order: 'asc' };

const SORTS: Record<LandsSort, SortKey[]> = {
  opening_bid_asc: [{ field: 'opening_bid', order: 'asc' }, byId],
  opening_bid_desc: [{ field: 'opening_bid', order: 'desc' }, byId],
  available_since_desc: [{ field: 'available_since', order: 'desc' }, byId],
};

/** Without sort: newest on the county list first. */
export const DEFAULT_LANDS_SORT: LandsSort = 'available_since_desc';

export function buildLandsQuery(params: LandsSearchParams): LandsQuery {
  const filter: Record<string, unknown>[] = [];
  if (params.county) filter.push({ terms: { county_slug: params.county } });
  if (params.tax_year) filter.push({ terms: { tax_year: params.tax_year } });
  if (params.min_opening_bid !== undefined || params.max_opening_bid !== undefined)
    filter.push({
      range: {
        opening_bid: {
          ...(params.min_opening_bid !== undefined ? { gte: params.min_opening_bid } : {}),
          ...(params.max_opening_bid !== undefined ? { lte: params.max_opening_bid } : {}),
        },
      },
    });
  return {
    query: filter.length > 0 ? { bool: { filter } } : { match_all: {} },
    sort: SORTS[params.sort ?? DEFAULT_LANDS_SORT],
  };
}
