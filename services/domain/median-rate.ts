/**
 * The median winning rate of a set of certificates from exact per-rate counts: nearest rank,
 * the rate at rank ceil(n/2) in ascending order, 0 for none. One rule for the holder groups'
 * order and rows, whether the counts come from a scan or from rollups kept at ingest.
 */
export function medianRate(counts: ReadonlyArray<readonly [rate: number, count: number]>): number {
  const sorted = [...counts].sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((sum, [, c]) => sum + c, 0);
  const rank = Math.ceil(n / 2);
  let seen = 0;
  for (const [rate, c] of sorted) {
    seen += c;
    if (seen >= rank) return rate;
  }
  return sorted.at(-1)?.[0] ?? 0;
}
