import { stat } from 'node:fs/promises';
import type { Client } from '@opensearch-project/opensearch';
import type { Logger } from '../../services/logger.ts';
import { aliasName, FILE_DATASETS, type FileDataset } from '../../services/domain/datasets.ts';
import { BulkMode } from '../indices/bulk-mode.ts';
import { createLanes, type Lanes } from './lane.ts';
import { RefreshGroup } from './refresh-group.ts';
import { HeldRollups } from '../rollups/held.ts';
import { RollupLedger } from '../rollups/ledger.ts';

/**
 * A file smaller than this (about 5,000 certificates) loads outside bulk mode when it is the only
 * file of its dataset the worker has in hand: switching refresh off and back on is two
 * cluster-state updates and a refresh (100-300 ms each on a busy 2-core node), more than a
 * county's update of a few thousand rows gains from it, and the first of them stood between
 * queueing the update and its rows being searchable, which a county's update should be within
 * 2 s. Its rows are searchable when its job completes all the same: the refresh group refreshes
 * after every file.
 */
export const SMALL_FILE_BYTES = 2 * 1024 * 1024;

/**
 * The longest a finished file waits for others to share its refresh: bounds a busy worker's job
 * latency (a file on an idle worker is refreshed at once). At 2.5 s a load of small files on a
 * busy machine refreshed every few thousand documents, and the engine spent more on merging those
 * segments than on writing them (82 refreshes and 0.5M documents merged for 300,000 rows, where
 * raw _bulk made 7 and merged none).
 */
const REFRESH_DELAY_MS = 10_000;

/**
 * What the files a worker loads at once share, built once per worker: the two
 * lanes, and per dataset the one bulk mode and the refresh group. process-file.ts
 * picks the job's dataset's; tests build their own.
 */
export interface LoadResources {
  lanes: Lanes;
  bulkModes: Record<FileDataset, BulkMode>;
  refreshGroups: Record<FileDataset, RefreshGroup>;
  /** Files of each dataset in hand now (inLoadMode), from pass 1 to bookkeeping. */
  loading: Record<FileDataset, number>;
  /** A refresh of the certificates index between two sends (lane.ts), for every other refresher of it (the parcel join). */
  refreshCertificates: () => Promise<unknown>;
  /** The rollup commits of this worker (rollups/ledger.ts). */
  rollupLedger: RollupLedger;
  /** The rollups of files sent since the last refresh, written by the next (rollups/held.ts). */
  heldRollups: HeldRollups;
}

export interface LoadResourceOptions {
  prefix: string;
  /** The configured OPENSEARCH_REPLICAS, restored when bulk mode ends. */
  replicas: number;
  /** Files the worker runs at once. */
  concurrency: number;
  logger: Logger;
}

export function createLoadResources(opensearch: Client, options: LoadResourceOptions): LoadResources {
  const alias = (d: FileDataset) => aliasName(options.prefix, d);
  // Up to concurrency - 2 files wait for one shared refresh, so two slots stay free: one file
  // validating, one sending. The delay bounds how long a job's completion waits for company.
  const refreshPolicy = { maxWaiting: Math.max(1, options.concurrency - 2), maxDelayMs: REFRESH_DELAY_MS };
  const bulkModes = {} as Record<FileDataset, BulkMode>;
  const loading = {} as Record<FileDataset, number>;
  const refreshGroups = {} as Record<FileDataset, RefreshGroup>;
  const lanes = createLanes();
  const rollupLedger = new RollupLedger();
  const heldRollups = new HeldRollups(opensearch, rollupLedger);
  // Certificates and their rollups become visible together only by refreshes between two sends,
  // each after the rollups held since the last one are written.
  const certificatesFence = <T>(fn: () => Promise<T>) =>
    lanes.send.between(async () => {
      await heldRollups.write();
      const out = await fn();
      rollupLedger.refreshed();
      return out;
    });
  for (const dataset of FILE_DATASETS) {
    const mode = new BulkMode(opensearch, { index: alias(dataset), dataset, replicas: options.replicas });
    // A worker that died mid-load left refresh off; queued before any job's bulk mode, so it runs first.
    mode.repair().catch((err: Error) => options.logger.warn({ err: err.message, dataset }, 'could not restore search settings'));
    bulkModes[dataset] = mode;
    const fence = dataset === 'certificates' ? certificatesFence : undefined;
    refreshGroups[dataset] = new RefreshGroup(opensearch, alias(dataset), refreshPolicy, fence);
    loading[dataset] = 0;
  }
  const refreshCertificates = () => certificatesFence(() => opensearch.indices.refresh({ index: alias('certificates') }));
  return { lanes, bulkModes, refreshGroups, loading, refreshCertificates, rollupLedger, heldRollups };
}

/**
 * Runs one file's load (pass 1 to bookkeeping) in its dataset's bulk mode, unless the file is
 * small and the only one of its dataset in hand (see SMALL_FILE_BYTES). A queue of small files
 * (a generated set of 300,000 certificates is 88 files of about 1 MB) still loads in bulk mode:
 * every file after the first finds another in hand, and joining the mode costs nothing once held.
 */
export async function inLoadMode<T>(resources: LoadResources, dataset: FileDataset, file: string, load: () => Promise<T>): Promise<T> {
  const mode = resources.bulkModes[dataset];
  // Decided before anything is awaited, so files taken from the queue together see each other.
  const alone = resources.loading[dataset] === 0 && !mode.held;
  resources.loading[dataset]++;
  try {
    if (alone && (await fileBytes(file)) < SMALL_FILE_BYTES) return await load();
    return await mode.run(load);
  } finally {
    resources.loading[dataset]--;
  }
}

/** The file's size; an unreadable file counts as large (pass 1 rejects it with its reason). */
async function fileBytes(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
