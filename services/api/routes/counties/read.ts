import type { Database } from 'better-sqlite3';
import { type County, getCounty, listCounties } from '../../../control/counties.ts';
import type { ObjectResult } from '../../envelope.ts';
import { NotFoundError } from '../../errors.ts';
import type { CountiesParams, CountyPath } from './params.ts';

/** All 67 counties, alphabetical by name (spec 4.10). SQLite only: answers while the engine is down. */
export function readCounties(deps: { db: Database }, _params: CountiesParams): ObjectResult<County[]> {
  return { data: listCounties(deps.db) };
}

export function readCounty(deps: { db: Database }, params: CountyPath): ObjectResult<County> {
  const county = getCounty(deps.db, params.county);
  if (!county) throw new NotFoundError(`no county has the slug ${JSON.stringify(params.county)}; GET /api/v1/counties lists all 67`);
  return { data: county };
}
