import type { Registry } from '../../../domain/registry.ts';
import { type BulkFile, readEntries } from '../../../bulk/entry.ts';
import type { BulkStorage } from '../../../bulk/storage.ts';
import type { ListResult } from '../../envelope.ts';
import { assertCounties } from '../certificates/read.ts';
import type { BulkFilesParams } from './params.ts';

export interface BulkReadDeps {
  bulk: BulkStorage;
  registry: Pick<Registry, 'county'>;
}

/** The manifest, filtered and paged: called by GET /bulk/files and the list_bulk_files tool. */
export async function readBulkFiles(deps: BulkReadDeps, params: BulkFilesParams): Promise<ListResult<BulkFile>> {
  if (params.county !== undefined) assertCounties(deps.registry, 'county', [params.county]);
  const since = params.since === undefined ? null : Date.parse(params.since.length === 10 ? `${params.since}T00:00:00Z` : params.since);
  const matching = (await readEntries(deps.bulk)).filter(
    (f) =>
      (params.dataset === undefined || f.dataset === params.dataset) &&
      (params.county === undefined || f.county === params.county) &&
      (params.tax_year === undefined || f.tax_year === params.tax_year) &&
      (params.format === undefined || f.format === params.format) &&
      (params.kind === undefined || f.kind === params.kind) &&
      (since === null || Date.parse(f.generated_at) >= since),
  );
  return {
    rows: matching.slice(params.offset, params.offset + params.limit),
    limit: params.limit,
    offset: params.offset,
    total: matching.length,
  };
}
