import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../../config.ts';
import { aliasName } from '../../../domain/datasets.ts';
import type { PagingCaches } from '../../../engine/paging/caches.ts';
import { isDatasetEmpty } from '../../coverage.ts';
import type { ListResult } from '../../envelope.ts';
import { readList } from '../read-list.ts';
import { buildLandsQuery } from './build-query.ts';
import { LANDS_SOURCE, type LandsDocument, mapLandsRow } from './map-row.ts';
import type { LandsSearchParams } from './params.ts';
import type { LandsRow } from './row.ts';

export interface LandsDeps {
  opensearch: Client;
  /** What deep pages remember between requests (one per process). */
  paging: PagingCaches;
  config: Pick<Config, 'INDEX_PREFIX' | 'PARCEL_BASE_URL'>;
}

/** GET /lands-available/search (spec 4.9): coverage not_yet_ingested exactly while the dataset is empty. */
export async function searchLands(deps: LandsDeps, params: LandsSearchParams): Promise<ListResult<LandsRow>> {
  const { query, sort } = buildLandsQuery(params);
  const alias = aliasName(deps.config.INDEX_PREFIX, 'lands-available');
  const list = await readList(deps, alias, {
    query,
    sort,
    page: params,
    source: LANDS_SOURCE,
    map: (doc: LandsDocument) => mapLandsRow(doc, deps.config.PARCEL_BASE_URL),
  });
  const notYetIngested = list.total === 0 && (await isDatasetEmpty(deps.opensearch, alias));
  return notYetIngested ? { ...list, notYetIngested } : list;
}
