import { BulkFile } from '../../../bulk/entry.ts';
import { listResponse } from '../../envelope.ts';

/** The manifest row is the builder's entry (services/bulk/entry.ts): one schema for both. */
export { BulkFile };
export const BulkFileList = listResponse(BulkFile);
