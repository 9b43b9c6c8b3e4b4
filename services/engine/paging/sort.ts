/**
 * A list endpoint's order as data: builders give it, the page plan reads and
 * rewrites it (reverses it for a read from the far end, drops a score that cannot
 * differ between documents) and only then turns it into Query DSL.
 */

export type SortOrder = 'asc' | 'desc';
export type SortKey = { field: string; order: SortOrder } | { score: true; order: SortOrder };

export function isScoreKey(key: SortKey): key is { score: true; order: SortOrder } {
  return 'score' in key;
}

/**
 * The DSL sort. Documents without a value sort last in the builders' order (the
 * engine's default either way); a reversed sort puts them first, so reversing the
 * whole order is exact even then.
 */
export function sortClause(sort: readonly SortKey[], reversed = false): Record<string, unknown>[] {
  return sort.map((k) => {
    const order = reversed ? flip(k.order) : k.order;
    if (isScoreKey(k)) return { _score: { order } };
    return { [k.field]: reversed ? { order, missing: '_first' } : { order } };
  });
}

export function flip(order: SortOrder): SortOrder {
  return order === 'asc' ? 'desc' : 'asc';
}

/**
 * A query whose every match scores the same (only filters, or match_all) orders
 * by the keys after the score: a score key is then dropped, so a "relevance"
 * order without a scoring clause pages like any field order.
 */
export function effectiveSort(sort: readonly SortKey[], query: Record<string, unknown>): SortKey[] {
  return isConstantScore(query) ? sort.filter((k) => !isScoreKey(k)) : [...sort];
}

export function isConstantScore(query: Record<string, unknown>): boolean {
  const [kind, ...more] = Object.keys(query);
  if (kind === undefined || more.length > 0) return false;
  if (kind === 'match_all' || kind === 'constant_score' || kind === 'match_none') return true;
  if (kind !== 'bool') return false;
  const bool = query.bool as Record<string, unknown>;
  // must and should score; filter and must_not never do (minimum_should_match without should is inert).
  const scoring = ['must', 'should'].some((c) => {
    const clauses = bool[c];
    return Array.isArray(clauses) ? clauses.length > 0 : clauses !== undefined;
  });
  return !scoring;
}
