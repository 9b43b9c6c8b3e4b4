/**
 * Holds work for a moment so that what arrives close together starts in one turn (issue 19
 * item 4). An admission that runs beside its request's read (access.admitBeside) has the read's
 * engine round trip to finish in, so it can wait for others: started in one turn, their Redis
 * windows leave in one write (ioredis pipelines what one turn sends) and come back in one read,
 * and their credits share one ledger transaction (turn-batch.ts). On this 2-core machine a
 * loopback send costs about 100 µs of CPU, as much as the rest of a charge.
 *
 * `hold(start)` runs `start` within `ms`, together with every other start held since the first
 * one of its group, in the order they arrived. `release()` starts the held group at once: a
 * request whose answer is ready calls it rather than wait out the rest of the window.
 */
export interface Gather {
  hold(start: () => void): void;
  release(): void;
}

export function createGather(ms: number): Gather {
  let held: (() => void)[] = [];
  let timer: NodeJS.Timeout | null = null;

  function release(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    const group = held;
    held = [];
    for (const start of group) start();
  }

  return {
    hold(start) {
      held.push(start);
      timer ??= setTimeout(release, ms);
    },
    release,
  };
}
