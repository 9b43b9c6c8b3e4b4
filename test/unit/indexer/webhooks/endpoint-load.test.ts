import { describe, expect, it } from 'vitest';
import { createEndpointLoads, type Slot } from '../../../../indexer/webhooks/endpoint-load.ts';

type Loads = ReturnType<typeof createEndpointLoads>;
/** Requests to an endpoint (each endpoint its own client unless a test says otherwise) that took ms each. */
const timed = (loads: Loads, id: string, ms: number, client = `c-${id}`) => {
  for (let i = 0; i < 40; i++) loads.enter(id, client)?.leave(ms);
};
const held: Slot[] = [];
/** Tries n entries, keeping the slots taken; true where one was taken. */
const enterMany = (loads: Loads, n: number, id: string, client = `c-${id}`) =>
  Array.from({ length: n }, () => {
    const slot = loads.enter(id, client);
    if (slot) held.push(slot);
    return slot !== null;
  });

describe('the per-endpoint limit', () => {
  it('gives an endpoint answering within a second up to half the slots, each endpoint its own', () => {
    const loads = createEndpointLoads({ slowLimit: 2, concurrency: 10, clientLimit: 2 });
    // Not timed yet: the small limit, until its answers show it is quick.
    expect(enterMany(loads, 3, 'new')).toEqual([true, true, false]);
    timed(loads, 'a', 50);
    timed(loads, 'b', 50);
    expect(enterMany(loads, 6, 'a')).toEqual([true, true, true, true, true, false]);
    expect(enterMany(loads, 1, 'b')).toEqual([true]);
    held.at(-2)!.leave(50);
    expect(enterMany(loads, 2, 'a')).toEqual([true, false]);
  });

  it('holds an endpoint whose answers take a second or more to WEBHOOK_ENDPOINT_MAX_IN_FLIGHT', () => {
    const loads = createEndpointLoads({ slowLimit: 2, concurrency: 10, clientLimit: 100 });
    timed(loads, 'slow', 1500);
    expect(enterMany(loads, 3, 'slow')).toEqual([true, true, false]);
    // Never less than the limit, even with few slots in all.
    const small = createEndpointLoads({ slowLimit: 4, concurrency: 2, clientLimit: 100 });
    expect(enterMany(small, 5, 'x')).toEqual([true, true, true, true, false]);
  });

  it('sends the n-th waiting delivery back for ceil(n / limit) of the recent request time, never less than 200 ms', () => {
    const loads = createEndpointLoads({ slowLimit: 2, concurrency: 4, clientLimit: 100 });
    // Not timed yet: a second per round; quick: 200 ms.
    expect(loads.deferral('new', 'c-new', 0)).toBe(1000);
    timed(loads, 'quick', 10);
    expect(loads.deferral('quick', 'c-quick', 0)).toBe(200);
    timed(loads, 'slow', 2000);
    // The average is now close to 2,000 ms; deferrals 1-2 wait one round, 3-4 two rounds, ...
    const waits = Array.from({ length: 6 }, () => loads.deferral('slow', 'c-slow', 0));
    expect(waits.map((w) => Math.round(w / 100) * 100)).toEqual([2000, 2000, 4000, 4000, 6000, 6000]);
    // Jitter adds up to a fifth.
    expect(loads.deferral('quick', 'c-quick', 0.999)).toBe(Math.round(200 * 1 * 1.1998));
  });
});

describe('the per-client limit', () => {
  it("holds one client's slow endpoints together to WEBHOOK_CLIENT_MAX_IN_FLIGHT, however many it has, and leaves the other slots to other clients", () => {
    const loads = createEndpointLoads({ slowLimit: 16, concurrency: 128, clientLimit: 16 });
    // Sixteen endpoints of one client, none answering yet, each below its own limit: together they stop at sixteen.
    const taken = Array.from({ length: 16 }, (_, e) => enterMany(loads, 16, `hung-${e}`, 'hung').filter(Boolean).length);
    expect(taken.reduce((a, b) => a + b, 0)).toBe(16);
    expect(taken[0]).toBe(16);
    // Another client is not affected by it.
    expect(enterMany(loads, 16, 'other', 'other')).toEqual(new Array(16).fill(true));
    // A slot given back (a timeout) lets one more in, and no more.
    const slot = loads.enter('hung-1', 'hung');
    expect(slot).toBeNull();
    held[held.length - 17]!.leave(10_000);
    expect(enterMany(loads, 2, 'hung-1', 'hung')).toEqual([true, false]);
  });

  it("lets a client whose endpoint answers quickly use half the slots (a firehose), and still holds its slow endpoints to the client's limit", () => {
    const loads = createEndpointLoads({ slowLimit: 16, concurrency: 128, clientLimit: 16 });
    timed(loads, 'firehose', 20, 'mixed');
    expect(enterMany(loads, 65, 'firehose', 'mixed').filter(Boolean).length).toBe(64);
    // Its half is used: nothing more for it, slow or quick.
    expect(enterMany(loads, 1, 'hung-a', 'mixed')).toEqual([false]);
    const other = createEndpointLoads({ slowLimit: 16, concurrency: 128, clientLimit: 16 });
    timed(other, 'firehose', 20, 'mixed');
    expect(enterMany(other, 10, 'firehose', 'mixed').filter(Boolean).length).toBe(10);
    // Beside a quick endpoint, its hung ones together still stop at sixteen.
    const hung = Array.from({ length: 4 }, (_, e) => enterMany(other, 16, `hung-${e}`, 'mixed').filter(Boolean).length);
    expect(hung.reduce((a, b) => a + b, 0)).toBe(16);
    expect(enterMany(other, 1, 'firehose', 'mixed')).toEqual([true]);
  });

  it("sends a delivery refused for its client's share back by the client's backlog and request time", () => {
    const loads = createEndpointLoads({ slowLimit: 16, concurrency: 128, clientLimit: 2 });
    timed(loads, 'h1', 10_000, 'hung');
    expect(enterMany(loads, 2, 'h1', 'hung')).toEqual([true, true]);
    expect(enterMany(loads, 1, 'h3', 'hung')).toEqual([false]);
    // The client's average is near 10 s: waiting deliveries 1-2 sit out one round, 3-4 two.
    const waits = Array.from({ length: 4 }, (_, i) => loads.deferral(`h${i + 3}`, 'hung', 0));
    expect(waits.map((w) => Math.round(w / 1000))).toEqual([10, 10, 20, 20]);
  });
});
