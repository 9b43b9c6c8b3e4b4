import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../../config.ts';
import { aliasName } from '../../../domain/datasets.ts';
import type { PagingCaches } from '../../../engine/paging/caches.ts';
import type { ListResult } from '../../envelope.ts';
import { readList } from '../read-list.ts';
import { buildSalesQuery } from './build-query.ts';
import { floridaToday } from './florida-today.ts';
import { mapSaleRow, SALE_SOURCE, type SaleDocument } from './map-row.ts';
import type { SalesSearchParams } from './params.ts';
import type { SaleRow } from './row.ts';

export interface SalesDeps {
  opensearch: Client;
  /** What deep pages remember between requests (one per process). */
  paging: PagingCaches;
  config: Pick<Config, 'INDEX_PREFIX'>;
}

/** GET /certificate-sales/search (spec 4.7): params -> build -> page -> rows with today's status. */
export async function searchSales(deps: SalesDeps, params: SalesSearchParams, now = new Date()): Promise<ListResult<SaleRow>> {
  const { query, sort } = buildSalesQuery(params);
  const today = floridaToday(now);
  return readList(deps, aliasName(deps.config.INDEX_PREFIX, 'sales'), {
    query,
    sort,
    page: params,
    source: SALE_SOURCE,
    map: (doc: SaleDocument) => mapSaleRow(doc, today),
  });
}
