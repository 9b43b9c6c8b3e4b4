import type { Client } from '@opensearch-project/opensearch';

/**
 * Which certificates of one county and tax year each free-text clause matches, by id: what the
 * worker needs to count a first load's searches with text itself, judging their other filters on
 * the documents it read. The engine's cost there is each text's fuzzy expansion over the index
 * (about half a millisecond a text, whatever the rows) and reading the ids of what it matches;
 * asking it for each search's count instead built a bucket per search under its text on every
 * segment, which cost half as much again (Miami-Dade 2025 at 1M: 400 ms against 270).
 *
 * One search a text, in a filter (a match is a match whatever its score). A text's ids come in
 * index order, which costs no sort; a text matching a whole page of the county and year is read
 * again sorted by id, page after page with search_after, so every id comes exactly once even if
 * the index merges meanwhile. Only the ids' doc values are read, never the stored documents.
 */

type Clause = Record<string, unknown>;

/** Texts a request carries. */
const TEXTS_PER_REQUEST = 100;
/** Ids a page: the index's result window. */
const PAGE = 10_000;

type Hit = { fields?: { id?: string[] }; sort?: unknown[] };
type Answer = { hits?: { hits: Hit[] }; error?: unknown };
type Pending = { key: string; clause: Clause; sorted: boolean; after?: unknown[] };

function body(p: Pending, countySlug: string, taxYear: number, page: number) {
  return {
    size: page,
    track_total_hits: false,
    _source: false,
    stored_fields: '_none_',
    docvalue_fields: ['id'],
    sort: p.sorted ? [{ id: 'asc' }] : ['_doc'],
    ...(p.after ? { search_after: p.after } : {}),
    query: { bool: { filter: [p.clause, { term: { county_slug: countySlug } }, { term: { tax_year: taxYear } }] } },
  };
}

/** text key -> the ids of the county and year's certificates it matches (an empty list when none). */
export async function textMatches(
  client: Client,
  alias: string,
  texts: ReadonlyMap<string, Clause>,
  countySlug: string,
  taxYear: number,
  /** Ids a request returns for a text (tests make it small to read on). */
  page = PAGE,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let pending: Pending[] = [...texts].map(([key, clause]) => ({ key, clause, sorted: false }));
  for (const p of pending) out.set(p.key, []);
  while (pending.length > 0) {
    const next: Pending[] = [];
    for (let i = 0; i < pending.length; i += TEXTS_PER_REQUEST) {
      const chunk = pending.slice(i, i + TEXTS_PER_REQUEST);
      const res = await client.msearch({ index: alias, body: chunk.flatMap((p) => [{}, body(p, countySlug, taxYear, page)]) });
      const answers = (res.body as { responses: Answer[] }).responses;
      chunk.forEach((p, j) => {
        const answer = answers[j]!;
        if (answer.error || !answer.hits) throw new Error(`the engine refused a text's matches: ${JSON.stringify(answer.error ?? answer)}`);
        const hits = answer.hits.hits;
        if (hits.length === page && !p.sorted) {
          // More than a page: read again from the start, in id order.
          next.push({ ...p, sorted: true });
          return;
        }
        const ids = out.get(p.key)!;
        for (const hit of hits) ids.push(hit.fields!.id![0]!);
        if (hits.length === page) next.push({ ...p, after: hits.at(-1)!.sort });
      });
    }
    pending = next;
  }
  return out;
}
