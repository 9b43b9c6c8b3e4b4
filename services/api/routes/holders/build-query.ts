import type { PageRequest } from '../../../engine/paging/plan.ts';
import type { SortKey } from '../../../engine/paging/sort.ts';
import { containsMatch } from './contains.ts';
import type { HolderSort, HoldersSearchParams } from './params.ts';

/** What a holder search matches and in what order. Pure: no client, clock or config. */
export type HoldersQuery = Pick<PageRequest, 'query' | 'sort'>;

const byId: SortKey = { field: 'id', order: 'asc' };

const SORTS: Record<HolderSort, SortKey[]> = {
  name_asc: [{ field: 'normalized_name', order: 'asc' }, byId],
  face_desc: [{ field: 'outstanding_face_amount', order: 'desc' }, byId],
  certificates_desc: [{ field: 'certificate_count', order: 'desc' }, byId],
  // The machine description's name for the same order.
  count_desc: [{ field: 'certificate_count', order: 'desc' }, byId],
};

/** Without sort: by name. */
export const DEFAULT_HOLDER_SORT: HolderSort = 'name_asc';

export function buildHoldersQuery(params: HoldersSearchParams): HoldersQuery {
  const filter: Record<string, unknown>[] = [];
  // Case, punctuation, spacing and "&" versus "and" never decide a match.
  if (params.query !== undefined) filter.push(containsMatch('name.contains', params.query));
  if (params.county) filter.push({ terms: { counties: params.county } });
  if (params.min_certificates !== undefined) filter.push({ range: { certificate_count: { gte: params.min_certificates } } });
  return {
    query: filter.length > 0 ? { bool: { filter } } : { match_all: {} },
    sort: SORTS[params.sort ?? DEFAULT_HOLDER_SORT],
  };
}
