/**
 * The `previous` of a change event: every public field whose value differs
 * between two renderings of the same row, with its old value. Rows are flat (strings,
 * numbers, booleans, null), so values compare with Object.is; a field new in `after`
 * counts as changed from null. Pure: the ingest, the sale-status job and the county
 * directory all describe their changes with it.
 */
export function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const previous: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    const old = before[key] ?? null;
    if (!Object.is(old, after[key] ?? null)) previous[key] = old as T[keyof T];
  }
  return previous;
}
