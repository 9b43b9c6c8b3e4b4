/**
 * The aggregation that summarizes one county's annual sale (spec 2.3) from its
 * certificates. Pure: the indexer sends it, map-sale.ts reads the answer.
 *
 * Sold means a bidder took it: neither struck to the county nor still waiting for
 * the sale (available, advertised). Offered is every certificate of the county-year.
 */
import { UNSOLD_STATUSES } from '../../services/domain/sold-to-bidder.ts';

// The rule is the domain's (the bid-rate analytics count the same certificates); re-exported for the holders query.
export { UNSOLD_STATUSES };

export function buildSaleQuery(countySlug: string, taxYear: number) {
  return {
    size: 0,
    track_total_hits: true,
    query: { bool: { filter: [{ term: { county_slug: countySlug } }, { term: { tax_year: taxYear } }] } },
    aggs: {
      face_offered: { sum: { field: 'face_amount' } },
      first_sale: { min: { field: 'sale_date' } },
      last_sale: { max: { field: 'sale_date' } },
      struck: { filter: { term: { struck_to_county: true } } },
      sold: {
        filter: {
          bool: {
            must_not: [{ term: { struck_to_county: true } }, { terms: { status: [...UNSOLD_STATUSES] } }],
          },
        },
        aggs: {
          face: { sum: { field: 'face_amount' } },
          rate: { avg: { field: 'interest_rate' } },
        },
      },
    },
  };
}
