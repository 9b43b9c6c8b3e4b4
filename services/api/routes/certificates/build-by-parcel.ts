import { normalizeKey } from '../../../domain/ids.ts';
import type { Clause } from '../../query/filters.ts';
import type { SortKey } from '../../../engine/paging/sort.ts';
import type { ByParcelParams } from './params.ts';

/**
 * GET /certificates/by-parcel: every tax year of one parcel, newest first. The
 * parcel id matches on its normalized key, so 12-34-56, 12.34.56 and 123456 are
 * one parcel. Pure; fixture-tested in fixtures/queries/certificates-by-parcel/.
 */
export function buildByParcel(p: ByParcelParams): { query: Clause; sort: SortKey[] } {
  return {
    query: {
      bool: {
        filter: [{ term: { county_slug: p.county } }, { term: { parcel_id_normalized: normalizeKey(p.parcel_id) } }],
      },
    },
    sort: [
      { field: 'tax_year', order: 'desc' },
      { field: 'sale_date', order: 'desc' },
      { field: 'id', order: 'asc' },
    ],
  };
}
