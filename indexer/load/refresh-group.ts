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
  /** Files in hand that will still request a refresh (hold), so an idle request need not run alone. */
  private held = 0;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    /** Default: every file refreshes on its own, at once. */
    private readonly policy: RefreshPolicy = { maxWaiting: 1, maxDelayMs: 0 },
  ) {}

  /**
   * A file that will request a refresh once sent is in hand. Until it does (or drops out), an
   * idle request waits for it instead of refreshing alone: the lanes go idle whenever the last
   * file sent while the next is between its passes (the conflict check), and the worker then
   * refreshed for one file and, moments later, for the next (12-18 refreshes for 88 files where 9
   * groups of 10 would do). Release the hold when the file's load ends, whatever happens.
   */
  hold(): RefreshHold {
    this.held++;
    let released = false;
    return {
      release: (requesting = false) => {
        if (released) return;
        released = true;
        this.held--;
        // A file that dropped out (rejected, failed) leaves the others nothing to wait for.
        if (!requesting && this.held === 0 && this.waiting.length > 0) void this.flush();
      },
    };
  }

  /**
   * Resolves once a refresh that started after this call has finished. idle: nothing else is
   * being read or sent; hold: this file's own hold, released by the request.
   */
  request(idle: boolean, hold?: RefreshHold): Promise<void> {
    hold?.release(true);
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if ((idle && this.held === 0) || this.waiting.length >= this.policy.maxWaiting) void this.flush();
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
      await this.client.indices.refresh({ index: this.index });
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}

/** A file's place in its refresh group between its taking up and its refresh request (RefreshGroup.hold). */
export interface RefreshHold {
  /** requesting: released by the file's own request, which decides the refresh itself. */
  release(requesting?: boolean): void;
}
