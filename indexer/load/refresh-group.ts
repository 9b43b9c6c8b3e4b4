import type { Client } from '@opensearch-project/opensearch';

export interface RefreshPolicy {
  /** Files that may wait for one shared refresh; keep below the worker's concurrency so slots stay free to read and send. */
  maxWaiting: number;
  /** The longest a file waits for company before its refresh runs anyway. */
  maxDelayMs: number;
}

/**
 * Group commit for refreshes. A refresh makes a new segment, and segments are
 * what the engine later merges: refreshed once per file, a queue of files cost
 * the engine a third more CPU than the same documents loaded in one go. Files
 * that finish sending therefore wait for one shared refresh, which runs when the
 * worker has nothing else in hand, when enough files wait, or after maxDelayMs.
 * A file still completes only after a refresh that began after its last write,
 * so its rows are searchable the moment its job completes.
 */
export class RefreshGroup {
  private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    /** Default: every file refreshes on its own, at once. */
    private readonly policy: RefreshPolicy = { maxWaiting: 1, maxDelayMs: 0 },
    /** Where the refresh runs: the certificates' runs between two sends (lane.ts); default at once. */
    private readonly fence: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn(),
  ) {}

  /** Resolves once a refresh that started after this call has finished. idle: nothing else is being loaded. */
  request(idle: boolean): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (idle || this.waiting.length >= this.policy.maxWaiting) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.policy.maxDelayMs);
    return done;
  }

  /** Refreshes now for everyone waiting. */
  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return;
    try {
      await this.fence(() => this.client.indices.refresh({ index: this.index }));
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
