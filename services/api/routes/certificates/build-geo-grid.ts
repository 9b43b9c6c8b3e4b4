import type { Clause } from '../../query/filters.ts';
import { buildCertificateSearch } from './build-search.ts';
import type { CertificateSearchParams, GeoGridParams } from './params.ts';

/**
 * GET /certificates/geo-grid: the search's query (text and every filter) and one geotile_grid
 * over the located certificates, each cell with the sum of its face amounts. Pure;
 * fixture-tested in fixtures/queries/certificates-geo-grid/.
 *
 * Exact or refused: a terms-like aggregation may drop a shard's smaller cells when a shard
 * holds more than shard_size of them. size and shard_size are the cap + 1, so when the merged
 * answer holds at most the cap, no shard held more than the cap (each shard's cells are among
 * the merged ones) and none was cut: every count is exact. More than the cap is a 400 naming zoom
 * (read-geo-grid.ts), never a partial map.
 */
export const GEO_GRID_MAX_CELLS = 10_000;

export function buildGeoGrid(p: GeoGridParams): Clause {
  const { zoom, ...filters } = p;
  const search = buildCertificateSearch(filters as CertificateSearchParams);
  return {
    size: 0,
    track_total_hits: false,
    query: search.query,
    aggs: {
      // A certificate without a location is in no cell; located counts those with one, so the
      // cells' counts add up to it.
      located: {
        filter: { exists: { field: 'location' } },
        aggs: {
          cells: {
            geotile_grid: { field: 'location', precision: zoom, size: GEO_GRID_MAX_CELLS + 1, shard_size: GEO_GRID_MAX_CELLS + 1 },
            aggs: { face_amount_sum: { sum: { field: 'face_amount' } } },
          },
        },
      },
    },
  };
}
