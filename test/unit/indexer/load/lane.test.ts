import { describe, expect, it } from 'vitest';
import { createLanes, Lane, lanesIdle, Permits } from '../../../../indexer/load/lane.ts';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('Lane', () => {
  it('runs one call at a time, in order, counting the calls in hand', async () => {
    const lane = new Lane();
    const order: string[] = [];
    const a = deferred();
    const first = lane.run(async () => {
      order.push('a start');
      await a.promise;
      order.push('a end');
    });
    const second = lane.run(async () => {
      order.push('b');
    });
    await Promise.resolve();
    expect(order).toEqual(['a start']);
    expect(lane.active).toBe(2);
    a.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['a start', 'a end', 'b']);
    expect(lane.active).toBe(0);
  });

  it('a failed call leaves the lane usable and counted down', async () => {
    const lane = new Lane();
    await expect(lane.run(async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(await lane.run(async () => 42)).toBe(42);
    expect(lane.active).toBe(0);
  });
});

describe('Lane.between', () => {
  it('runs as soon as the running call ends, ahead of calls queued earlier, without counting as one', async () => {
    const lane = new Lane();
    const order: string[] = [];
    const a = deferred();
    const first = lane.run(async () => {
      order.push('a');
      await a.promise;
    });
    const second = lane.run(async () => {
      order.push('b');
    });
    const fence = lane.between(async () => {
      order.push('refresh');
      return 7;
    });
    expect(lane.active).toBe(2);
    await Promise.resolve();
    expect(order).toEqual(['a']);
    a.resolve();
    expect(await fence).toBe(7);
    await Promise.all([first, second]);
    expect(order).toEqual(['a', 'refresh', 'b']);
  });

  it('runs at once on an idle lane, and a failure leaves the lane usable', async () => {
    const lane = new Lane();
    await expect(lane.between(async () => Promise.reject(new Error('refresh failed')))).rejects.toThrow('refresh failed');
    expect(await lane.run(async () => 1)).toBe(1);
  });
});

describe('lanesIdle', () => {
  it('is true only when neither lane holds a file', async () => {
    const lanes = createLanes();
    expect(lanesIdle(lanes)).toBe(true);
    const hold = deferred();
    const sending = lanes.send.run(() => hold.promise);
    expect(lanesIdle(lanes)).toBe(false);
    hold.resolve();
    await sending;
    expect(lanesIdle(lanes)).toBe(true);
  });
});

describe('Permits', () => {
  it('lets `free` holders in at once, the next in order as each gives its permit back, once', async () => {
    const permits = new Permits(2);
    const a = await permits.acquire();
    const b = await permits.acquire();
    const order: string[] = [];
    const c = permits.acquire().then((release) => {
      order.push('c');
      return release;
    });
    const d = permits.acquire().then((release) => {
      order.push('d');
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    // A second release of the same permit frees nothing more.
    a();
    await c;
    await Promise.resolve();
    expect(order).toEqual(['c']);
    b();
    (await d)();
    expect(order).toEqual(['c', 'd']);
    (await c)();
    // Both permits are free again: two more get in without waiting.
    await permits.acquire();
    await permits.acquire();
  });
});
