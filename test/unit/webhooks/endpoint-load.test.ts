import { describe, expect, it } from 'vitest';
import { createEndpointLoads } from '../../../indexer/webhooks/endpoint-load.ts';

const timed = (loads: ReturnType<typeof createEndpointLoads>, id: string, ms: number) => {
  for (let i = 0; i < 40; i++) {
    loads.enter(id);
    loads.leave(id, ms);
  }
};

describe('the per-endpoint limit', () => {
  it('gives an endpoint answering within a second up to half the slots, each endpoint its own', () => {
    const loads = createEndpointLoads({ slowLimit: 2, concurrency: 10 });
    // Not timed yet: the small limit, until its answers show it is quick.
    expect(Array.from({ length: 3 }, () => loads.enter('new'))).toEqual([true, true, false]);
    timed(loads, 'a', 50);
    timed(loads, 'b', 50);
    expect(Array.from({ length: 6 }, () => loads.enter('a'))).toEqual([true, true, true, true, true, false]);
    expect(loads.enter('b')).toBe(true);
    loads.leave('a', 50);
    expect(loads.enter('a')).toBe(true);
    expect(loads.enter('a')).toBe(false);
  });

  it('holds an endpoint whose answers take a second or more to WEBHOOK_ENDPOINT_MAX_IN_FLIGHT', () => {
    const loads = createEndpointLoads({ slowLimit: 2, concurrency: 10 });
    timed(loads, 'slow', 1500);
    expect(Array.from({ length: 3 }, () => loads.enter('slow'))).toEqual([true, true, false]);
    // Never less than the limit, even with few slots in all.
    const small = createEndpointLoads({ slowLimit: 4, concurrency: 2 });
    expect(Array.from({ length: 5 }, () => small.enter('x'))).toEqual([true, true, true, true, false]);
  });

  it('sends the n-th waiting delivery back for ceil(n / limit) of the recent request time, never less than 200 ms', () => {
    const loads = createEndpointLoads({ slowLimit: 2, concurrency: 4 });
    // Not timed yet: a second per round; quick: 200 ms.
    expect(loads.deferral('new', 0)).toBe(1000);
    timed(loads, 'quick', 10);
    expect(loads.deferral('quick', 0)).toBe(200);
    timed(loads, 'slow', 2000);
    // The average is now close to 2,000 ms; deferrals 1-2 wait one round, 3-4 two rounds, ...
    const waits = Array.from({ length: 6 }, () => loads.deferral('slow', 0));
    expect(waits.map((w) => Math.round(w / 100) * 100)).toEqual([2000, 2000, 4000, 4000, 6000, 6000]);
    // Jitter adds up to a fifth.
    expect(loads.deferral('quick', 0.999)).toBe(Math.round(200 * 1 * 1.1998));
  });
});
