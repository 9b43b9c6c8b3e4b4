import { aliasName } from '../../../domain/datasets.ts';
import { search } from '../../../engine/search.ts';
import type { ObjectResult } from '../../envelope.ts';
import { InvalidParamsError } from '../../errors.ts';
import { buildGeoGrid, GEO_GRID_MAX_CELLS } from './build-geo-grid.ts';
import type { GeoGridObject } from './geo-grid-row.ts';
import { type GeoGridAggregation, mapGeoGrid } from './map-geo-grid.ts';
import type { GeoGridParams } from './params.ts';
import { assertCounties, type CertificatesDeps } from './read.ts';

/** Map cells of the certificates within the filters: the REST route and the MCP tool both call this. */
export async function readGeoGrid(deps: CertificatesDeps, params: GeoGridParams): Promise<ObjectResult<GeoGridObject>> {
  assertCounties(deps.registry, 'county', params.county);
  const res = await search<never>(deps.opensearch, aliasName(deps.config.INDEX_PREFIX, 'certificates'), buildGeoGrid(params));
  const grid = mapGeoGrid(params.zoom, res.aggregations as GeoGridAggregation | undefined);
  assertWithinCellCap(grid);
  return { data: grid };
}

/** More cells than the cap means a shard may have cut its own (build-geo-grid.ts): refused, never approximate. */
export function assertWithinCellCap(grid: Pick<GeoGridObject, 'zoom' | 'cells'>): void {
  if (grid.cells.length <= GEO_GRID_MAX_CELLS) return;
  throw new InvalidParamsError([
    {
      parameter: 'zoom',
      message: `zoom ${grid.zoom} gives more than ${GEO_GRID_MAX_CELLS.toLocaleString('en-US')} cells within these filters (the most one answer holds); use a lower zoom or a smaller area (bbox, polygon, near)`,
    },
  ]);
}
