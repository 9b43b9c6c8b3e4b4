/**
 * One file at a time through a stage. The worker runs each file's two passes
 * through two lanes: reading and validating (CPU on this thread) and sending to
 * OpenSearch (CPU on the engine). With a lane per pass, file B validates while
 * file A is being sent, instead of both validating and then both sending in
 * lockstep, which left one side idle half the time.
 */
export class Lane {
  private tail: Promise<void> = Promise.resolve();
  /** Calls to run() waiting for their turn or running. */
  active = 0;

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.active++;
    const result = this.tail
      .then(() => fn())
      .finally(() => {
        this.active--;
      });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
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
