import type { Clause } from '../../query/filters.ts';
import type { SortKey } from '../../../engine/paging/sort.ts';

/**
 * GET /certificates/{id}/deed-estimate: the other certificates on the same
 * county and parcel that an applicant must redeem (s. 197.502(2)): neither
 * redeemed nor cancelled, and already sold on the day estimated (a later tax
 * year's certificate does not exist yet then). Pure; fixture-tested in
 * fixtures/queries/certificates-deed-estimate/.
 */

export interface OtherCertificatesInput {
  county_slug: string;
  parcel_id_normalized: string;
  /** The applicant's own certificate, left out. */
  id: string;
  as_of: string;
}

/**
 * A parcel carries one certificate a tax year; 500 is far above any real parcel
 * and inside the engine's result window, and read.ts refuses to answer a partial
 * list rather than understate the total.
 */
export const OTHER_CERTIFICATES_MAX = 500;

export function buildOtherCertificates(p: OtherCertificatesInput): { query: Clause; sort: SortKey[]; size: number } {
  return {
    query: {
      bool: {
        filter: [
          { term: { county_slug: p.county_slug } },
          { term: { parcel_id_normalized: p.parcel_id_normalized } },
          { range: { sale_date: { lte: p.as_of } } },
        ],
        must_not: [{ term: { id: p.id } }, { terms: { status: ['redeemed', 'cancelled'] } }],
      },
    },
    sort: [
      { field: 'tax_year', order: 'asc' },
      { field: 'id', order: 'asc' },
    ],
    size: OTHER_CERTIFICATES_MAX,
  };
}
