import type { Client } from '@opensearch-project/opensearch';

/**
 * How many certificates of a county and tax year each saved search matches in the certificates
 * alias: what a first load tells each search (saved_search.matches_loaded) when the worker could
 * not count it itself, i.e. the searches with free text.
 *
 * The engine's cost there is the free text, not the filters: each fuzzy clause is built anew
 * for every filter that holds it, about 4 ms a clause a file at 1M certificates, whatever the
 * documents. Many searches share their text (a surname, a street) and differ in their filters,
 * so the searches are grouped by their text clause: one `filter` bucket per distinct text, and
 * under it one cheap `filters` bucket per search holding only that search's other filters. A
 * search's count is its bucket's under its text's, which is the count of its whole query: a
 * stored query is `bool { must: [text], filter: [...] }` (listQuery), and a query of any other
 * shape is counted whole. 0s are left out.
 */

type Clause = Record<string, unknown>;

export interface TextGroup {
  /** The text clause the group's searches share; undefined: searches counted by their whole query. */
  text?: Clause;
  /** Each search's id with what it asks beside the text (its whole query when there is no text). */
  searches: { id: string; rest: Clause }[];
}

function isClause(x: unknown): x is Clause {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The text clause of a stored query and its filters apart, or undefined for any other shape. */
export function splitText(query: Clause): { text: Clause; rest: Clause } | undefined {
  const bool = query.bool;
  if (!isClause(bool) || !Object.keys(bool).every((k) => k === 'must' || k === 'filter')) return undefined;
  if (!Array.isArray(bool.must) || bool.must.length !== 1 || !isClause(bool.must[0])) return undefined;
  const filter = bool.filter;
  if (filter !== undefined && !Array.isArray(filter)) return undefined;
  return { text: bool.must[0], rest: filter && filter.length > 0 ? { bool: { filter } } : { match_all: {} } };
}

/** The searches grouped by their text clause (pure); the searches without text form one group of their own. */
export function groupByText(searches: readonly { id: string; query: Clause }[]): TextGroup[] {
  const byText = new Map<string, TextGroup>();
  const whole: TextGroup = { searches: [] };
  for (const s of searches) {
    const split = splitText(s.query);
    if (!split) {
      whole.searches.push({ id: s.id, rest: s.query });
      continue;
    }
    const key = JSON.stringify(split.text);
    const group = byText.get(key) ?? { text: split.text, searches: [] };
    byText.set(key, group);
    group.searches.push({ id: s.id, rest: split.rest });
  }
  return [...(whole.searches.length > 0 ? [whole] : []), ...byText.values()];
}

/** Searches per request: their buckets, plus one per distinct text, stay far under the engine's bucket limit. */
const SEARCHES_PER_REQUEST = 500;

type FiltersAnswer = { buckets: Record<string, { doc_count: number }> };

export async function countSavedSearchMatches(
  client: Client,
  alias: string,
  searches: readonly { id: string; query: Clause }[],
  countySlug: string,
  taxYear: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const groups = groupByText(searches);
  while (groups.length > 0) {
    // Whole groups to a request, so a text is built once per request.
    const batch: TextGroup[] = [];
    let size = 0;
    while (groups.length > 0 && (batch.length === 0 || size + groups[0]!.searches.length <= SEARCHES_PER_REQUEST)) {
      const g = groups.shift()!;
      batch.push(g);
      size += g.searches.length;
    }
    const filtersOf = (g: TextGroup) => ({ filters: { filters: Object.fromEntries(g.searches.map((s) => [s.id, s.rest])) } });
    const aggs = Object.fromEntries(
      batch.map((g, i) => [`g${i}`, g.text ? { filter: g.text, aggs: { searches: filtersOf(g) } } : filtersOf(g)]),
    );
    const res = await client.search({
      index: alias,
      body: {
        size: 0,
        track_total_hits: false,
        query: { bool: { filter: [{ term: { county_slug: countySlug } }, { term: { tax_year: taxYear } }] } },
        aggs,
      },
    });
    const answers = res.body.aggregations as Record<string, FiltersAnswer | { searches: FiltersAnswer }>;
    batch.forEach((_, i) => {
      const answer = answers[`g${i}`]!;
      const buckets = 'searches' in answer ? answer.searches.buckets : answer.buckets;
      for (const [id, bucket] of Object.entries(buckets)) if (bucket.doc_count > 0) out.set(id, bucket.doc_count);
    });
  }
  return out;
}
