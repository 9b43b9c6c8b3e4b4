import type { Client } from '@opensearch-project/opensearch';
import type { Dataset } from '../../services/domain/datasets.ts';
import { loadMapping, searchRefreshInterval } from '../../services/engine/mapping-file.ts';

export interface BulkModeTarget {
  /** Alias or physical index name. */
  index: string;
  dataset: Dataset;
  /** The configured OPENSEARCH_REPLICAS, restored at the end. */
  replicas: number;
}

/**
 * Loading settings: refresh off, so each document is refreshed once. Replicas stay: an index in
 * bulk mode is live (searches read it while it loads), and on a cluster a node lost mid-load must
 * leave a copy of every shard answering (with replicas dropped, that node took its shards' answers
 * with it). A fresh index nobody reads yet (a reindex target) is created without replicas instead
 * (create.ts, bulk).
 */
const BULK_SETTINGS = { refresh_interval: '-1' } as const;

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
 * The one bulk mode (refresh off) of an index, held for as long as
 * this process has any load running on it instead of switched per load: each
 * switch is a cluster-state update of 100-300 ms, and a queue of many small files
 * would spend more on switching than it saves. The worker keeps one per dataset
 * for its lifetime and enters it once per job; `holders derive` makes one for its
 * single load. Every loaded file still ends with an explicit _refresh (its
 * RefreshGroup), so its rows are searchable the moment its job completes, and the
 * last holder's leave restores settings and refreshes, also when a load throws.
 *
 * The count lives in this process only. Index settings have no compare-and-set,
 * so a count kept in _meta could be lost by two processes racing on it, and a
 * crashed process would never decrement it, leaving the index unrefreshed for
 * good. Two processes loading one index at once (a worker and `holders derive`)
 * may therefore restore settings while the other still loads: that only costs the
 * other load some speed, never correctness. A process that died in bulk mode
 * leaves refresh off; the next worker to start restores it (repair()).
 */
export class BulkMode {
  private holders = 0;
  private transition: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly target: BulkModeTarget,
  ) {}

  /** Whether a load of this process holds the mode now: one more joins it without a settings switch. */
  get held(): boolean {
    return this.holders > 0;
  }

  /** Runs fn in bulk mode; settings switch only when the first load enters and the last one leaves. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await fn();
    } finally {
      await this.leave();
    }
  }

  /** Puts search settings back, e.g. at start-up after a worker died mid-load. */
  repair(): Promise<void> {
    return this.serialize(() => restoreSearchSettings(this.client, this.target));
  }

  private enter(): Promise<void> {
    return this.serialize(async () => {
      if (this.holders++ === 0) await this.client.indices.putSettings({ index: this.target.index, body: { index: BULK_SETTINGS } });
    });
  }

  private leave(): Promise<void> {
    return this.serialize(async () => {
      if (--this.holders === 0) await restoreSearchSettings(this.client, this.target);
    });
  }

  /** Settings changes happen one at a time, in order, even when loads finish together. */
  private serialize(step: () => Promise<void>): Promise<void> {
    const next = this.transition.then(step, step);
    this.transition = next.catch(() => undefined);
    return next;
  }
}
