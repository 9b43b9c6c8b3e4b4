import type { Client } from '@opensearch-project/opensearch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefreshGroup } from '../../../../indexer/load/refresh-group.ts';

/**
 * The group's timing on a fake clock: when a refresh starts and whom it serves. The same group on
 * a real index (a refresh makes the writes searchable) is test/integration/indexer/load/refresh-and-refused.test.ts.
 */

/** A client whose refreshes are counted and answer when the test says. */
function refreshes() {
  const calls: { index: string; answer: () => void; fail: (err: Error) => void }[] = [];
  const client = {
    indices: {
      refresh: ({ index }: { index: string }) =>
        new Promise<void>((resolve, reject) => {
          calls.push({ index, answer: resolve, fail: reject });
        }),
    },
  } as unknown as Client;
  return { client, calls };
}

/** Which of `requests` have settled, after every pending callback has run. */
async function settled(requests: Promise<void>[]): Promise<boolean[]> {
  const done = requests.map(() => false);
  for (const [i, r] of requests.entries()) {
    const mark = () => {
      done[i] = true;
    };
    r.then(mark, mark);
  }
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RefreshGroup', () => {
  it('refreshes at once for a file when the worker is idle', async () => {
    const { client, calls } = refreshes();
    const group = new RefreshGroup(client, 'idx', { maxWaiting: 5, maxDelayMs: 60_000 });
    const a = group.request(true);
    expect(calls.map((c) => c.index)).toEqual(['idx']);
    calls[0]!.answer();
    await a;
  });

  it('holds files back until enough wait, then one refresh serves them all', async () => {
    const { client, calls } = refreshes();
    const group = new RefreshGroup(client, 'idx', { maxWaiting: 3, maxDelayMs: 60_000 });
    const a = group.request(false);
    const b = group.request(false);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toHaveLength(0);
    expect(await settled([a, b])).toEqual([false, false]);
    const c = group.request(false);
    expect(calls).toHaveLength(1);
    // Still waiting for the refresh itself, which began after every write.
    expect(await settled([a, b, c])).toEqual([false, false, false]);
    calls[0]!.answer();
    await Promise.all([a, b, c]);
    // The timer went with the flush: no second refresh later.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
  });

  it('refreshes after maxDelayMs when no company comes, not before', async () => {
    const { client, calls } = refreshes();
    const group = new RefreshGroup(client, 'idx', { maxWaiting: 10, maxDelayMs: 100 });
    const a = group.request(false);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(0);
    // A second file does not restart the wait: the first one's delay holds for both.
    const b = group.request(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    calls[0]!.answer();
    await Promise.all([a, b]);
  });

  it('passes a failed refresh on to every file waiting for it', async () => {
    const { client, calls } = refreshes();
    const group = new RefreshGroup(client, 'idx', { maxWaiting: 2, maxDelayMs: 60_000 });
    const a = group.request(false);
    const b = group.request(false);
    calls[0]!.fail(new Error('no such index'));
    const outcomes = await Promise.allSettled([a, b]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : o.status))).toEqual([
      'no such index',
      'no such index',
    ]);
  });
});
