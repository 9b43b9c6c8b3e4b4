/**
 * How many file sets a build writes at once. Two: one set's engine read, another's rendering and
 * gzip, and a third's Parquet conversion then overlap on two cores, where one at a time left each
 * waiting on the other; more only adds memory (each holds two pages and a DuckDB connection).
 */
export const BUILD_WIDTH = 2;

/**
 * Runs `work` on every item, at most `width` at a time, and returns the results in the items'
 * order. The first failure is thrown once the runs under way have settled, and starts no more.
 */
export async function sideBySide<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let nextIndex = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && nextIndex < items.length) {
      const i = nextIndex++;
      try {
        results[i] = await work(items[i]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(width, items.length) }, lane));
  const failure = lanes.find((l) => l.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  return results;
}
