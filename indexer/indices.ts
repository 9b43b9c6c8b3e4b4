/**
 * Index lifecycle: every dataset is an alias (`<prefix>-<dataset>`) over one
 * versioned physical index (`<prefix>-<dataset>-v<version>-<timestamp>`), so a
 * mapping change is a reindex plus an atomic alias swap, never downtime.
 */
export { type BulkModeTarget, restoreSearchSettings, withBulkMode } from './indices/bulk-mode.ts';
export { dropIndices, describeIndices, type IndexDescription } from './indices/describe.ts';
export { aliasTargets, type EnsuredIndex, ensureIndices } from './indices/ensure.ts';
export { type IndexLifecycleCode, IndexLifecycleError } from './indices/errors.ts';
export { loadMapping, type MappingFile } from './indices/mapping-file.ts';
export { aliasName, DATASETS, type Dataset, physicalName } from '../services/domain/datasets.ts';
export { type ReindexOptions, type ReindexProgress, type ReindexResult, reindex } from './indices/reindex.ts';
