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
function splitText(query: Clause): { text: Clause; rest: Clause } | undefined {
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

/** Bucket entries per request: their buckets, plus one per distinct text, stay far under the engine's bucket limit. */
const SEARCHES_PER_REQUEST = 500;

type FiltersAnswer = { buckets: Record<string, { doc_count: number }> };

/** One first load's question: how many of this county and tax year each of these searches matches. */
export interface LoadCountAsk {
  searches: readonly { id: string; query: Clause }[];
  countySlug: string;
  taxYear: number;
}

/** A text group gathered over several asks: each entry is one search of one ask, keyed `ask:search id`. */
interface SharedGroup {
  text?: Clause;
  entries: { key: string; rest: Clause }[];
}

/** The asks' searches grouped by text across asks (pure): a text shared by many loads is one group. */
export function groupAsks(asks: readonly LoadCountAsk[]): SharedGroup[] {
  const byText = new Map<string, SharedGroup>();
  asks.forEach((ask, i) => {
    const scope = [{ term: { county_slug: ask.countySlug } }, { term: { tax_year: ask.taxYear } }];
    for (const g of groupByText(ask.searches)) {
      const key = g.text ? JSON.stringify(g.text) : '';
      const shared = byText.get(key) ?? { ...(g.text ? { text: g.text } : {}), entries: [] };
      byText.set(key, shared);
      // Each entry holds its own load's county and year: the request's query only narrows to their union.
      for (const s of g.searches) shared.entries.push({ key: `${i}:${s.id}`, rest: { bool: { filter: [...scope, s.rest] } } });
    }
  });
  return [...byText.values()];
}

/**
 * Each ask's counts, in the asks' order, from as few requests as the bucket bound allows. A text
 * is built once per request whatever the number of loads asking about it: the worker's loads that
 * become searchable in one refresh are counted together (loadCounter).
 */
export async function countLoads(client: Client, alias: string, asks: readonly LoadCountAsk[]): Promise<Map<string, number>[]> {
  const out = asks.map(() => new Map<string, number>());
  const groups = groupAsks(asks);
  const pairs = [...new Set(asks.map((a) => JSON.stringify([a.countySlug, a.taxYear])))].map((p) => JSON.parse(p) as [string, number]);
  const either = pairs.map(([county, year]) => ({ bool: { filter: [{ term: { county_slug: county } }, { term: { tax_year: year } }] } }));
  const query = { bool: { filter: [{ bool: { should: either, minimum_should_match: 1 } }] } };
  while (groups.length > 0) {
    // Whole groups to a request, so a text is built once per request.
    const batch: SharedGroup[] = [];
    let size = 0;
    while (groups.length > 0 && (batch.length === 0 || size + groups[0]!.entries.length <= SEARCHES_PER_REQUEST)) {
      const g = groups.shift()!;
      batch.push(g);
      size += g.entries.length;
    }
    const filtersOf = (g: SharedGroup) => ({ filters: { filters: Object.fromEntries(g.entries.map((e) => [e.key, e.rest])) } });
    const aggs = Object.fromEntries(
      batch.map((g, i) => [`g${i}`, g.text ? { filter: g.text, aggs: { searches: filtersOf(g) } } : filtersOf(g)]),
    );
    const res = await client.search({ index: alias, body: { size: 0, track_total_hits: false, query, aggs } });
    const answers = res.body.aggregations as Record<string, FiltersAnswer | { searches: FiltersAnswer }>;
    batch.forEach((_, i) => {
      const answer = answers[`g${i}`]!;
      const buckets = 'searches' in answer ? answer.searches.buckets : answer.buckets;
      for (const [key, bucket] of Object.entries(buckets)) {
        if (bucket.doc_count === 0) continue;
        const colon = key.indexOf(':');
        out[Number(key.slice(0, colon))]!.set(key.slice(colon + 1), bucket.doc_count);
      }
    });
  }
  return out;
}

export async function countSavedSearchMatches(
  client: Client,
  alias: string,
  searches: readonly { id: string; query: Clause }[],
  countySlug: string,
  taxYear: number,
): Promise<Map<string, number>> {
  return (await countLoads(client, alias, [{ searches, countySlug, taxYear }]))[0]!;
}

/**
 * Counts asked while a request is out wait for it and go together in the next one: loads made
 * searchable by one shared refresh publish at once, and their texts are built once instead of
 * once a load. An ask alone is sent at once. A failed request fails every ask it carried, each
 * load's job then failing and retrying as it would alone.
 */
export function loadCounter(client: Client, alias: string) {
  type Waiting = { ask: LoadCountAsk; resolve: (m: Map<string, number>) => void; reject: (e: unknown) => void };
  let waiting: Waiting[] = [];
  let busy = false;
  const send = async () => {
    busy = true;
    while (waiting.length > 0) {
      const taken = waiting;
      waiting = [];
      try {
        const counts = await countLoads(
          client,
          alias,
          taken.map((w) => w.ask),
        );
        for (const [i, w] of taken.entries()) w.resolve(counts[i]!);
      } catch (e) {
        for (const w of taken) w.reject(e);
      }
    }
    busy = false;
  };
  return {
    count(ask: LoadCountAsk): Promise<Map<string, number>> {
      return new Promise((resolve, reject) => {
        waiting.push({ ask, resolve, reject });
        if (!busy) void send();
      });
    },
  };
}

/** One counter per engine client and alias, shared by the jobs a worker runs at once. */
const counters = new WeakMap<Client, Map<string, ReturnType<typeof loadCounter>>>();

export function sharedLoadCounter(client: Client, alias: string): ReturnType<typeof loadCounter> {
  const byAlias = counters.get(client) ?? new Map<string, ReturnType<typeof loadCounter>>();
  counters.set(client, byAlias);
  const counter = byAlias.get(alias) ?? loadCounter(client, alias);
  byAlias.set(alias, counter);
  return counter;
}
