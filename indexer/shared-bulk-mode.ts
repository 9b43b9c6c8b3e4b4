import type { Client } from '@opensearch-project/opensearch';
import { type BulkModeTarget, restoreSearchSettings } from './indices/bulk-mode.ts';

/**
 * Bulk mode (refresh off, no replicas) held for as long as this worker has any
 * file in pass 2, instead of switched per file: each switch is a cluster-state
 * update of 100-300 ms, and a queue of many small files would spend more on
 * switching than it saves. Every file still ends with an explicit _refresh (its
 * RefreshGroup), so its rows are searchable the moment its job completes.
 * A worker that dies in bulk mode leaves refresh off; the next worker to start
 * restores search settings (see repair()).
 */
export class SharedBulkMode {
  private holders = 0;
  private transition: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly target: BulkModeTarget,
  ) {}

  /**
   * Runs fn in bulk mode. Making fn's writes searchable is the caller's refresh
   * (see RefreshGroup); the last holder's leave restores settings and refreshes.
   */
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
      if (this.holders++ === 0)
        await this.client.indices.putSettings({
          index: this.target.index,
          body: { index: { refresh_interval: '-1', number_of_replicas: 0 } },
        });
    });
  }

  private leave(): Promise<void> {
    return this.serialize(async () => {
      if (--this.holders === 0) await restoreSearchSettings(this.client, this.target);
    });
  }

  /** Settings changes happen one at a time, in order, even when files finish together. */
  private serialize(step: () => Promise<void>): Promise<void> {
    const next = this.transition.then(step, step);
    this.transition = next.catch(() => undefined);
    return next;
  }
}
