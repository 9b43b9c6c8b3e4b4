import { describe, expect, it } from 'vitest';
import { sideBySide } from '../../../../services/bulk/side-by-side.ts';

/** A promise the test settles by hand, so the order of events is the test's, not the clock's. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('sideBySide', () => {
  it('runs at most `width` at once and returns the results in the items’ order, whatever order they finish in', async () => {
    const gates = [gate(), gate(), gate(), gate()];
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const done = sideBySide([0, 1, 2, 3], 2, async (i) => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await gates[i]!.opened;
      running--;
      return `r${i}`;
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of [gates[3]!, gates[2]!, gates[0]!]) g.open();
    expect(await done).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(most).toBe(2);
  });

  it('throws the first failure once the runs under way settle, and starts no more', async () => {
    const started: number[] = [];
    const slow = gate();
    const done = sideBySide([0, 1, 2, 3], 2, async (i) => {
      started.push(i);
      if (i === 1) throw new RangeError('county 1');
      await slow.opened;
      return i;
    });
    await new Promise((r) => setImmediate(r));
    slow.open();
    await expect(done).rejects.toBeInstanceOf(RangeError);
    expect(started).toEqual([0, 1]);
  });

  it('returns nothing for no items', async () => {
    expect(await sideBySide([], 2, async () => 1)).toEqual([]);
  });
});
