/**
 * The aggregation that turns certificates into holders (spec 2.4). Pure: the
 * runner sends it page by page, map-holder.ts reads each bucket.
 *
 * A composite aggregation over holder_id pages through every holder with
 * after_key, so the number of holders is unbounded (a terms aggregation would
 * have to hold them all in one response).
 *
 * Left out, because none of them is a holder in the market sense and the county
 * would dwarf every investor in its own list:
 * - certificates struck to the county (no bidder took them);
 * - certificates not yet sold (available, advertised): build-certificate makes
 *   the county their holder, but nobody bought them;
 * - certificates whose holder is a county itself (a file may name "Alachua
 *   County" without flagging the row as struck), matched by holder_id.
 */
import { UNSOLD_STATUSES } from '../sales/build-sale-query.ts';

export interface HoldersQueryParams {
  /** holder_id of every county's own name (countyHolderName), excluded as holders. */
  countyHolderIds: readonly string[];
  /** The previous page's after_key; absent on the first page. */
  after?: { holder_id: string } | null;
  /** Holders per page. */
  pageSize: number;
  /** Upper bound of counties one holder can appear in (the state has 67). */
  maxCounties: number;
}

/** A certificate the holder still holds: not redeemed, and not cancelled (a cancelled one holds nothing). */
export const HELD_FILTER = {
  bool: { filter: [{ term: { redeemed: false } }], must_not: [{ term: { status: 'cancelled' } }] },
} as const;

export function buildHoldersQuery(params: HoldersQueryParams) {
  return {
    size: 0,
    track_total_hits: false,
    query: {
      bool: {
        must_not: [
          { term: { struck_to_county: true } },
          { terms: { status: [...UNSOLD_STATUSES] } },
          { terms: { holder_id: [...params.countyHolderIds] } },
        ],
      },
    },
    aggs: {
      holders: {
        composite: {
          size: params.pageSize,
          sources: [{ holder_id: { terms: { field: 'holder_id' } } }],
          ...(params.after ? { after: params.after } : {}),
        },
        aggs: {
          // holder_name is indexed lowercased, so the spelling people wrote is read
          // from _source; the most frequent one wins, ties alphabetically.
          name: {
            terms: {
              script: { lang: 'painless', source: 'params._source.holder_name' },
              size: 1,
              order: [{ _count: 'desc' }, { _key: 'asc' }],
            },
          },
          held: {
            filter: HELD_FILTER,
            aggs: { face: { sum: { field: 'face_amount' } } },
          },
          counties: { terms: { field: 'county_slug', size: params.maxCounties, order: { _key: 'asc' } } },
          first_year: { min: { field: 'tax_year' } },
          last_year: { max: { field: 'tax_year' } },
        },
      },
    },
  };
}
