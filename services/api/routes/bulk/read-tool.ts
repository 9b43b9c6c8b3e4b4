import type { BulkFile } from '../../../bulk/entry.ts';
import { folderStorage } from '../../../bulk/folder-storage.ts';
import type { Principal } from '../../access/authenticate.ts';
import { FeatureDisabledError } from '../../access/errors.ts';
import type { ApiDeps } from '../../deps.ts';
import type { ListResult } from '../../envelope.ts';
import type { BulkFilesParams } from './params.ts';
import { readBulkFiles } from './read.ts';

/**
 * The list_bulk_files tool's read: the same manifest read as GET /bulk/files, refused on a plan
 * without CSV with the answer the REST route gets from the access hook (MCP requests never ask
 * for CSV, so the hook cannot tell).
 */
export async function readBulkFilesForTool(deps: ApiDeps, principal: Principal, params: BulkFilesParams): Promise<ListResult<BulkFile>> {
  if (!principal.plan.csv) throw new FeatureDisabledError('csv_disabled', principal.plan.code, {});
  return readBulkFiles({ bulk: folderStorage(deps.config.BULK_DIR), registry: deps.registry }, params);
}
