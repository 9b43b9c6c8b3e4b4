import { aliasName, type Dataset } from '../domain/datasets.ts';
import { ROLLUP_KIND_FIELD } from './rollups/rollup-docs.ts';

/**
 * The aliases a dataset's physical index carries. The certificates index also holds its rollup
 * documents (rollups/rollup-docs.ts, so one refresh shows both): its public alias filters them
 * out, so every read through it sees certificates only, and a second alias on the same index
 * sees only the rollups.
 */

/** The alias the analytic reads use for rollup documents. */
export function rollupAliasName(prefix: string): string {
  return `${prefix}-certificate-rollups`;
}

export const CERTIFICATES_ONLY = { bool: { must_not: [{ exists: { field: ROLLUP_KIND_FIELD } }] } };
export const ROLLUPS_ONLY = { bool: { filter: [{ exists: { field: ROLLUP_KIND_FIELD } }] } };

export function datasetAliases(prefix: string, dataset: Dataset): Record<string, { filter?: object }> {
  const alias = aliasName(prefix, dataset);
  if (dataset !== 'certificates') return { [alias]: {} };
  return { [alias]: { filter: CERTIFICATES_ONLY }, [rollupAliasName(prefix)]: { filter: ROLLUPS_ONLY } };
}
