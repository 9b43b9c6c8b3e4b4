import { describe, expect, it } from 'vitest';
import { createEndpointLoads } from '../../../indexer/webhooks/endpoint-load.ts';

describe('the per-endpoint limit', () => {
  it('gives an endpoint at most its limit of open requests, and each endpoint its own', () => {
    const loads = createEndpointLoads(2);
    expect([loads.enter('a'), loads.enter('a'), loads.enter('a')]).toEqual([true, true, false]);
    expect(loads.enter('b')).toBe(true);
    loads.leave('a', 50);
    expect(loads.enter('a')).toBe(true);
    expect(loads.enter('a')).toBe(false);
  });

  it('lets a receiver that answers within 100 ms have four times the limit open', () => {
    const loads = createEndpointLoads(2);
    for (let i = 0; i < 30; i++) {
      loads.enter('fast');
      loads.leave('fast', 5);
    }
    expect(Array.from({ length: 9 }, () => loads.enter('fast'))).toEqual([true, true, true, true, true, true, true, true, false]);
  });

  it('sends the n-th waiting delivery back for ceil(n / limit) of the recent request time, never less than 200 ms', () => {
    const loads = createEndpointLoads(2);
    // Not timed yet: 200 ms per round.
    expect(loads.deferral('new', 0)).toBe(200);
    for (let i = 0; i < 30; i++) {
      loads.enter('slow');
      loads.leave('slow', 1000);
    }
    loads.enter('slow');
    loads.enter('slow');
    // The average is now close to 1,000 ms; deferrals 1-2 wait one round, 3-4 two rounds, ...
    const waits = Array.from({ length: 6 }, () => loads.deferral('slow', 0));
    expect(waits.map((w) => Math.round(w / 100) * 100)).toEqual([1000, 1000, 2000, 2000, 3000, 3000]);
    // Jitter adds up to a fifth.
    expect(loads.deferral('fast', 0.999)).toBe(Math.round(200 * 1 * 1.1998));
  });
});
