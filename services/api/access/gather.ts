/**
 * Holds work for a moment so that what arrives close together starts in one turn (issue 19
 * item 4). An admission that runs beside its request's read (access.admitBeside) has the read's
 * whole engine round trip to finish in, so it can wait a millisecond for others: started in one
 * turn, their Redis windows leave in one write (ioredis pipelines what one turn sends) and come
 * back in one read, and their credits share one ledger transaction (turn-batch.ts). On this
 * 2-core machine a loopback send costs about 100 µs of CPU, as much as the rest of a charge.
 *
 * `hold(start)` runs `start` within `ms`, together with every other start held since the
 * first one of its group; the order of arrival is kept.
 */
export function createGather(ms: number): (start: () => void) => void {
  let held: (() => void)[] = [];
  let timer: NodeJS.Timeout | null = null;

  function release(): void {
    timer = null;
    const group = held;
    held = [];
    for (const start of group) start();
  }

  return (start) => {
    held.push(start);
    timer ??= setTimeout(release, ms);
  };
}
