import type { KeyKind } from './cuts.ts';
import { isScoreKey, type SortKey } from './sort.ts';

/**
 * The rules a list's sort must keep for the page engine (read-page.ts) to return exact
 * pages at any depth, checked in one place. A builder that breaks one is a bug in
 * our code, never a client's mistake: the page read refuses it with a PageRuleError
 * (a 500 that the error handler logs with the rule) instead of answering with pages
 * that overlap, skip rows or never converge.
 */

export type PageRule = 'ends-in-id' | 'score-first' | 'sortable-type' | 'money-on-double' | 'string-after-score-ascending';

export class PageRuleError extends Error {
  override name = 'PageRuleError';
  constructor(
    readonly rule: PageRule,
    message: string,
  ) {
    super(`page rule ${rule}: ${message}`);
  }
}

/** The unique key every order ends with (each index stores it as a keyword). */
export const TIE_BREAK_FIELD = 'id';

/**
 * Checked at the start of every page read (no engine call needed):
 * - ends-in-id: the last key is unique per document, so the order is total. Without it
 *   two pages may overlap or skip rows, and a deep page's selection splits a group of
 *   equal values on the next key until one is unique: the id is where it converges.
 * - score-first: a relevance order cuts scores first (selectByScore), then hands a group
 *   of equal scores to the field plan on the later keys; a score anywhere else cannot be
 *   cut by a range and would make that hand-over wrong.
 */
export function checkSortRules(sort: readonly SortKey[]): void {
  const last = sort[sort.length - 1];
  if (!last || isScoreKey(last) || last.field !== TIE_BREAK_FIELD)
    throw new PageRuleError('ends-in-id', `the sort must end with the unique ${TIE_BREAK_FIELD} key, got ${describe(sort)}`);
  if (sort.some((k, i) => i > 0 && isScoreKey(k)))
    throw new PageRuleError('score-first', `a score key may only come first, got ${describe(sort)}`);
}

const INTEGER = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);

/**
 * Checked at the start of every deep page read, when the field types are read from the
 * engine (a shallow page never needs them, and asking would cost a round trip on the hot
 * path; test/unit/services/engine/paging/rules.test.ts holds every list's sorts to the same rules
 * against the mapping files). Returns how each field key of the sort is cut.
 * - sortable-type: a cut is a range on a keyword, a date or a number; any other type (or a
 *   field mapped differently in two indices behind the alias) cannot be cut.
 * - money-on-double: a sortable decimal is a double. OpenSearch 3.8 returns wrong top hits
 *   for a descending sort on scaled_float (opensearch-project/OpenSearch#17833: pages
 *   skipped and repeated rows), and a float cannot hold whole cents exactly, which the
 *   half-cent cuts (cuts.ts) rely on; money fields sort on a double copy.
 * - string-after-score-ascending: a page after a score cut starts at (score, the start
 *   of every later key); a descending string has no value that sorts before all others.
 */
export function sortKinds(sort: readonly SortKey[], types: Record<string, string | undefined>): KeyKind[] {
  const kinds: KeyKind[] = [];
  for (const key of sort) {
    if (isScoreKey(key)) continue;
    const kind = kindOf(key.field, types[key.field]);
    if (kind === 'string' && key.order === 'desc' && sort[0] && isScoreKey(sort[0]))
      throw new PageRuleError('string-after-score-ascending', `the string key ${key.field} after the score must be ascending`);
    kinds.push(kind);
  }
  return kinds;
}

function kindOf(field: string, type: string | undefined): KeyKind {
  if (type === 'keyword' || type === 'constant_keyword') return 'string';
  if (type === 'date') return 'date';
  if (type && INTEGER.has(type)) return 'integer';
  if (type === 'double') return 'decimal';
  if (type === 'scaled_float' || type === 'float' || type === 'half_float')
    throw new PageRuleError('money-on-double', `the sort field ${field} is a ${type}; sort on a double copy of it`);
  throw new PageRuleError('sortable-type', `cannot cut the sort field ${field} of type ${type ?? 'unmapped'}`);
}

function describe(sort: readonly SortKey[]): string {
  return JSON.stringify(sort.map((k) => (isScoreKey(k) ? `_score ${k.order}` : `${k.field} ${k.order}`)));
}
