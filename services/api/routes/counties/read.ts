import { type County, getCounty, listCounties } from '../../../control/ingest/counties.ts';
import type { Sql } from '../../../control/db/sql.ts';
import type { ObjectResult } from '../../envelope.ts';
import { NotFoundError } from '../../errors.ts';
import type { CountiesParams, CountyPath } from './params.ts';

/** All 67 counties, alphabetical by name (spec 4.10). The control plane only: answers while the engine is down. */
export async function readCounties(deps: { sql: Sql }, _params: CountiesParams): Promise<ObjectResult<County[]>> {
  return { data: await listCounties(deps.sql) };
}

export async function readCounty(deps: { sql: Sql }, params: CountyPath): Promise<ObjectResult<County>> {
  const county = await getCounty(deps.sql, params.county);
  if (!county) throw new NotFoundError(`no county has the slug ${JSON.stringify(params.county)}; GET /api/v1/counties lists all 67`);
  return { data: county };
}
