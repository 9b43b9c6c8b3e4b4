import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../../config.ts';
import { aliasName } from '../../../domain/datasets.ts';
import { getById } from '../../../engine/search.ts';
import { isDatasetEmpty } from '../../coverage.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { readPage } from '../../query/page.ts';
import { buildHoldersQuery } from './build-query.ts';
import { HOLDER_SOURCE, type HolderDocument, mapHolderRow } from './map-row.ts';
import type { HolderPath, HoldersSearchParams } from './params.ts';
import type { HolderRow } from './row.ts';

export interface HoldersDeps {
  opensearch: Client;
  config: Pick<Config, 'INDEX_PREFIX'>;
}

const holdersAlias = (deps: HoldersDeps) => aliasName(deps.config.INDEX_PREFIX, 'holders');

/** GET /holders/search (spec 4.8): coverage not_yet_ingested exactly while the dataset is empty. */
export async function searchHolders(deps: HoldersDeps, params: HoldersSearchParams): Promise<ListResult<HolderRow>> {
  const { query, sort } = buildHoldersQuery(params);
  const alias = holdersAlias(deps);
  const page = await readPage<HolderDocument>(deps.opensearch, alias, {
    query,
    sort,
    limit: params.limit,
    offset: params.offset,
    source: HOLDER_SOURCE,
  });
  const notYetIngested = page.total === 0 && (await isDatasetEmpty(deps.opensearch, alias));
  return {
    rows: page.hits.map((hit) => mapHolderRow(hit._source)),
    limit: params.limit,
    offset: params.offset,
    total: page.total,
    ...(notYetIngested ? { notYetIngested } : {}),
  };
}

/**
 * GET /holders/{id}: the holder, or 404 not_found. While the holder dataset is
 * empty the 404 says so in details.coverage.status (an error has no meta).
 */
export async function readHolder(deps: HoldersDeps, path: HolderPath): Promise<ObjectResult<HolderRow>> {
  const alias = holdersAlias(deps);
  const doc = await getById<HolderDocument>(deps.opensearch, alias, path.id);
  if (doc) return { data: mapHolderRow(doc) };
  if (await isDatasetEmpty(deps.opensearch, alias))
    throw new ApiError('not_found', `no holder has the id ${JSON.stringify(path.id)}: holder records are not yet ingested`, {
      coverage: { status: 'not_yet_ingested' },
    });
  throw new ApiError('not_found', `no holder has the id ${JSON.stringify(path.id)}; GET /api/v1/holders/search lists holders`);
}
