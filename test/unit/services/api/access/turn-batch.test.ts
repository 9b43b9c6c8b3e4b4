import { describe, expect, it } from 'vitest';
import { createTurnBatch } from '../../../../../services/api/access/turn-batch.ts';

/** A batch runner that records each batch it is given and doubles every number (an Error for negatives). */
function recorder() {
  const batches: number[][] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    return items.map((x) => (x < 0 ? new Error(`negative ${x}`) : x * 2));
  };
  return { batches, run };
}

describe('createTurnBatch', () => {
  it('runs the calls of one turn as one batch, in call order, and gives each caller its own result', async () => {
    const r = recorder();
    const call = createTurnBatch(r.run);
    expect(await Promise.all([call(1), call(2), call(3)])).toEqual([2, 4, 6]);
    expect(r.batches).toEqual([[1, 2, 3]]);
  });

  it('takes in calls made by promise continuations of the same turn (admissions resumed by one Redis reply)', async () => {
    const r = recorder();
    const call = createTurnBatch(r.run);
    const later = (x: number) =>
      Promise.resolve()
        .then(() => Promise.resolve())
        .then(() => call(x));
    expect(await Promise.all([call(1), later(2), later(3)])).toEqual([2, 4, 6]);
    expect(r.batches).toEqual([[1, 2, 3]]);
  });

  it('starts a new batch for calls made after the last one ran', async () => {
    const r = recorder();
    const call = createTurnBatch(r.run);
    await call(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await Promise.all([call(2), call(3)])).toEqual([4, 6]);
    expect(r.batches).toEqual([[1], [2, 3]]);
  });

  it('an Error in a slot rejects that caller only', async () => {
    const r = recorder();
    const call = createTurnBatch(r.run);
    const results = await Promise.allSettled([call(1), call(-1), call(3)]);
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('negative -1');
  });

  it('a batch that throws rejects every caller in it, and the next turn starts clean', async () => {
    let fail = true;
    const call = createTurnBatch(async (items: number[]) => {
      if (fail) throw new Error('busy');
      return items;
    });
    const results = await Promise.allSettled([call(1), call(2)]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await call(5)).toBe(5);
  });
});
