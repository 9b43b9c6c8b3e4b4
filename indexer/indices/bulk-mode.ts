import type { Client } from '@opensearch-project/opensearch';
import { loadMapping, searchRefreshInterval } from './mapping-file.ts';
import type { Dataset } from '../../services/domain/datasets.ts';

export interface BulkModeTarget {
  /** Alias or physical index name. */
  index: string;
  dataset: Dataset;
  /** The configured OPENSEARCH_REPLICAS, restored at the end. */
  replicas: number;
}

/** Search-ready settings: refresh from the mapping file, replicas from config, then a refresh. */
export async function restoreSearchSettings(client: Client, target: BulkModeTarget): Promise<void> {
  const refresh_interval = searchRefreshInterval(loadMapping(target.dataset));
  await client.indices.putSettings({
    index: target.index,
    body: { index: { refresh_interval, number_of_replicas: target.replicas } },
  });
  await client.indices.refresh({ index: target.index });
}

/**
 * Runs a bulk load with refresh off and no replicas (each document is written and
 * refreshed once), then restores search settings, also when fn throws.
 *
 * Overlapping loads on one index: each load restores at its own end, with no
 * reference count. Index settings have no compare-and-set, so a count kept in
 * _meta could be lost by two loads racing on it, and a crashed process would
 * never decrement it, leaving the index unrefreshed for good. Restoring early
 * only costs the still-running load some speed, never correctness; a worker that
 * died mid-load is repaired by calling restoreSearchSettings at start-up.
 */
export async function withBulkMode<T>(client: Client, target: BulkModeTarget, fn: () => Promise<T>): Promise<T> {
  await client.indices.putSettings({
    index: target.index,
    body: { index: { refresh_interval: '-1', number_of_replicas: 0 } },
  });
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    try {
      await restoreSearchSettings(client, target);
    } catch (restoreErr) {
      throw new AggregateError([err, restoreErr], `bulk load on ${target.index} failed and its settings were not restored`);
    }
    throw err;
  }
  await restoreSearchSettings(client, target);
  return result;
}
