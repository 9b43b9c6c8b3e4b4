/**
 * One file at a time through a stage. The worker runs each file's two passes
 * through two lanes: reading and validating (CPU on this thread) and sending to
 * OpenSearch (CPU on the engine). With a lane per pass, file B validates while
 * file A is being sent, instead of both validating and then both sending in
 * lockstep, which left one side idle half the time.
 *
 * The send lane is also the certificates' fence: a refresh of the certificates index
 * runs between two of its tasks (between()), never while a file is half sent or its
 * rollups are not yet written, so every refresh shows whole files and their rollups together.
 */
export class Lane {
  private readonly queue: (() => void)[] = [];
  private busy = false;
  /** Calls to run() waiting for their turn or running. */
  active = 0;

  /** Runs fn after everything queued before it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.active++;
    return this.enqueue(fn, false).finally(() => {
      this.active--;
    });
  }

  /**
   * Runs fn as soon as the task running now ends, ahead of the tasks still queued: a refresh
   * waits for the file being sent, not for every file queued behind it. Not counted in active.
   */
  between<T>(fn: () => Promise<T>): Promise<T> {
    return this.enqueue(fn, true);
  }

  private enqueue<T>(fn: () => Promise<T>, first: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const task = () => {
        Promise.resolve()
          .then(fn)
          .then(resolve, reject)
          .finally(() => {
            this.busy = false;
            this.next();
          });
      };
      if (first) this.queue.unshift(task);
      else this.queue.push(task);
      if (!this.busy) this.next();
    });
  }

  private next(): void {
    const task = this.queue.shift();
    if (!task) return;
    this.busy = true;
    task();
  }
}

/** At most `free` holders at once; the others wait, first come first served. */
export class Permits {
  private readonly waiting: (() => void)[] = [];

  constructor(private free: number) {}

  /** Resolves with this holder's release, which is safe to call more than once. */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/**
 * Files between the start of pass 1 and the end of their send, at most: the one being sent and
 * two read ahead. Pass 1 is faster than the send (at 10M, about 2.5 s against 9 s a file), so
 * without a bound every file the worker takes at once (WORKER_CONCURRENCY, 24) waited read and
 * validated with its id table and rollup sums in memory; two ready files already keep the send
 * lane from ever waiting on pass 1.
 */
export const FILES_AHEAD = 3;

export interface Lanes {
  validate: Lane;
  send: Lane;
  /** A file holds one from the start of its pass 1 to the end of its send. */
  ahead: Permits;
}

export function createLanes(): Lanes {
  return { validate: new Lane(), send: new Lane(), ahead: new Permits(FILES_AHEAD) };
}

/** No file is being read, validated or sent: nothing is gained by holding a refresh back. */
export function lanesIdle(lanes: Lanes): boolean {
  return lanes.validate.active === 0 && lanes.send.active === 0;
}
