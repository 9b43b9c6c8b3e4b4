import { buildHoldersQuery } from './build-query.ts';
import { HOLDER_SOURCE, type HolderDocument, mapHolderRow } from './map-row.ts';
import { HOLDER_COLUMNS, type HolderRow } from './row.ts';
import { aliasName } from '../../../domain/datasets.ts';
import { count } from '../../../engine/search.ts';
import { type BulkDeps, writeSnapshot } from '../../../bulk/build-certificates.ts';
import { documentPages } from '../../../bulk/certificate-pages.ts';
import type { BulkFile } from '../../../bulk/entry.ts';
import { HOLDER_PARQUET } from './parquet-columns.ts';

/**
 * The holders snapshot: one file set for the whole state. A holder is one document across every
 * county it holds in (its `counties` lists them; its counts and face are statewide), so a file
 * per county would repeat a holder in each of its counties with totals that belong to none.
 * The rows are those of GET /holders/search without filters, matched by the route's own query
 * builder and rendered by its own mapper, in id order. Nothing is written while the holders
 * index is empty (the caller's full build then removes an older file).
 */
export async function buildHoldersSnapshot(deps: BulkDeps): Promise<BulkFile[]> {
  const alias = aliasName(deps.config.INDEX_PREFIX, 'holders');
  if ((await count(deps.opensearch, alias)) === 0) return [];
  const { query } = buildHoldersQuery({ limit: 1, offset: 0 });
  return writeSnapshot(deps, { dataset: 'holders', county: null, taxYear: null, columns: HOLDER_COLUMNS, parquet: HOLDER_PARQUET }, () =>
    documentPages<HolderDocument, HolderRow>(deps.opensearch, alias, query, HOLDER_SOURCE, mapHolderRow, deps.pageRows),
  );
}
