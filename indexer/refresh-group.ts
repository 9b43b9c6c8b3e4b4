import type { Client } from '@opensearch-project/opensearch';

/**
 * Group commit for refreshes. A refresh makes a new segment, and on this 2-core
 * node one per file cost about a third of the engine's CPU for a queue of small
 * files. Files that finish sending while another file is already queued to send
 * wait for one shared refresh instead; the last file in line (or the one that
 * makes too many wait) refreshes for all. A job still completes only after a
 * refresh that began after its last write, so its rows are searchable then.
 */
export class RefreshGroup {
  private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];

  constructor(
    private readonly client: Client,
    private readonly index: string,
    /** How many files may wait for a shared refresh; keep below the worker's concurrency so a slot stays free. */
    private readonly maxWaiting = 1,
  ) {}

  /** Resolves once a refresh that started after this call has finished. */
  request(moreComing: boolean): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (!moreComing || this.waiting.length >= this.maxWaiting) void this.flush();
    return done;
  }

  /** Refreshes now for everyone waiting; the send lane calls it when nothing else is queued. */
  async flush(): Promise<void> {
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return;
    try {
      await this.client.indices.refresh({ index: this.index });
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
