import { listSources, type Source, sourcesForCounty } from '../../../control/ingest/sources.ts';
import type { Sql } from '../../../control/db/sql.ts';
import type { ListResult } from '../../envelope.ts';
import { NotFoundError } from '../../errors.ts';
import type { SourcesCountyParams, SourcesCountyPath, SourcesParams } from './params.ts';

/** GET /sources (spec 4.11): by county name, newest tax year first. The control plane only: answers while the engine is down. */
export async function readSources(deps: { sql: Sql }, params: SourcesParams): Promise<ListResult<Source>> {
  const { rows, total } = await listSources(deps.sql, {
    county: params.county,
    vendor: params.vendor,
    sourceKind: params.source_kind,
    active: params.active,
    limit: params.limit,
    offset: params.offset,
  });
  return { rows, limit: params.limit, offset: params.offset, total };
}

/** GET /sources/{county}: newest tax year first; 404 when the county has none (an unknown slug too). */
export async function readCountySources(
  deps: { sql: Sql },
  path: SourcesCountyPath,
  params: SourcesCountyParams,
): Promise<ListResult<Source>> {
  const all = await sourcesForCounty(deps.sql, path.county);
  if (all.length === 0)
    throw new NotFoundError(`no sources for the county ${JSON.stringify(path.county)}; GET /api/v1/sources lists every source`);
  // One row per tax year: a county has a few dozen at most, so the page is cut here.
  return {
    rows: all.slice(params.offset, params.offset + params.limit),
    limit: params.limit,
    offset: params.offset,
    total: all.length,
  };
}
