import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../../config.ts';
import { aliasName } from '../../../domain/datasets.ts';
import type { PagingCaches } from '../../../engine/paging/caches.ts';
import { getById } from '../../../engine/search.ts';
import { isDatasetEmpty } from '../../coverage.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { readList } from '../read-list.ts';
import { buildHoldersQuery } from './build-query.ts';
import { HOLDER_SOURCE, type HolderDocument, mapHolderRow } from './map-row.ts';
import type { HolderPath, HoldersSearchParams } from './params.ts';
import type { HolderRow } from './row.ts';

export interface HoldersDeps {
  opensearch: Client;
  /** What deep pages remember between requests (one per process). */
  paging: PagingCaches;
  config: Pick<Config, 'INDEX_PREFIX'>;
}

const holdersAlias = (deps: HoldersDeps) => aliasName(deps.config.INDEX_PREFIX, 'holders');

/** GET /holders/search (spec 4.8): coverage not_yet_ingested exactly while the dataset is empty. */
export async function searchHolders(deps: HoldersDeps, params: HoldersSearchParams): Promise<ListResult<HolderRow>> {
  const { query, sort } = buildHoldersQuery(params);
  const alias = holdersAlias(deps);
  const list = await readList(deps, alias, {
    query,
    sort,
    page: params,
    source: HOLDER_SOURCE,
    map: (doc: HolderDocument) => mapHolderRow(doc),
  });
  const notYetIngested = list.total === 0 && (await isDatasetEmpty(deps.opensearch, alias));
  return notYetIngested ? { ...list, notYetIngested } : list;
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
