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

export interface Lanes {
  validate: Lane;
  send: Lane;
}

export function createLanes(): Lanes {
  return { validate: new Lane(), send: new Lane() };
}

/** No file is being read, validated or sent: nothing is gained by holding a refresh back. */
export function lanesIdle(lanes: Lanes): boolean {
  return lanes.validate.active === 0 && lanes.send.active === 0;
}
