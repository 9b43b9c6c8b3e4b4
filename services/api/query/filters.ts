/**
 * Pure Query DSL fragments for filters. A filter is named after the public
 * parameter (and facet) it comes from, so facets.ts can leave out a field's own
 * filter when it counts that field (multi-select facets: a county picker still
 * shows the other counties).
 */

export type Clause = Record<string, unknown>;

export interface NamedFilter {
  /** The parameter / facet name this filter belongs to (county, status, ...). */
  name: string;
  clause: Clause;
}

/** Any of the values, exactly (keyword, integer or boolean fields). */
export function anyOf(field: string, values: readonly (string | number | boolean)[]): Clause {
  const unique = [...new Set(values)];
  return unique.length === 1 ? { term: { [field]: unique[0] } } : { terms: { [field]: unique } };
}

/**
 * Any of the values, ignoring case, as plain strings: a term query per value, so
 * nothing in the user's text is read as syntax (terms has no case_insensitive).
 */
export function anyOfIgnoringCase(field: string, values: readonly string[]): Clause {
  const unique = [...new Set(values.map((v) => v.toLowerCase()))];
  const one = (value: string) => ({ term: { [field]: { value, case_insensitive: true } } });
  return unique.length === 1 ? one(unique[0]!) : { bool: { should: unique.map(one), minimum_should_match: 1 } };
}

/** An inclusive range; undefined when neither end is given. */
export function inclusiveRange(field: string, gte: number | string | undefined, lte: number | string | undefined): Clause | undefined {
  if (gte === undefined && lte === undefined) return undefined;
  return { range: { [field]: { ...(gte !== undefined ? { gte } : {}), ...(lte !== undefined ? { lte } : {}) } } };
}

/** Collects the filters that were given, in parameter order, dropping the absent ones. */
export function namedFilters(entries: [string, Clause | undefined][]): NamedFilter[] {
  return entries.filter((e): e is [string, Clause] => e[1] !== undefined).map(([name, clause]) => ({ name, clause }));
}

/**
 * The query of a list: optional scored text plus non-scoring filters. With neither,
 * match_all (every document scores the same, so the sort's later keys decide).
 */
export function listQuery(text: Clause | undefined, filters: readonly NamedFilter[]): Clause {
  if (!text && filters.length === 0) return { match_all: {} };
  return {
    bool: {
      ...(text ? { must: [text] } : {}),
      ...(filters.length > 0 ? { filter: filters.map((f) => f.clause) } : {}),
    },
  };
}
