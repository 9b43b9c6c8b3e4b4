import type { Client } from '@opensearch-project/opensearch';

/**
 * Which certificates of one county and tax year each free-text clause matches, by id: what the
 * worker needs to count a first load's searches with text itself, judging their other filters on
 * the documents it read. The engine's cost there is each text's fuzzy expansion over the index
 * (about a millisecond a text, whatever the rows); asking it for each search's count instead built
 * a bucket per search under its text on every segment, which cost as much again and more.
 *
 * One search a text, in a filter (a match is a match whatever its score), sorted by id so a text
 * matching more than a page of the county and year is read on with search_after, every id exactly
 * once. Only the ids' doc values are read, never the stored documents.
 */

type Clause = Record<string, unknown>;

/** Texts a request carries: a few hundred searches' worth of small bodies. */
const TEXTS_PER_REQUEST = 100;
/** Ids a page: the index's result window. */
const PAGE = 10_000;

type Hit = { fields?: { id?: string[] }; sort?: unknown[] };
type Answer = { hits?: { hits: Hit[] }; error?: unknown; status?: number };

function body(text: Clause, countySlug: string, taxYear: number, page: number, after?: unknown[]) {
  return {
    size: page,
    track_total_hits: false,
    _source: false,
    stored_fields: '_none_',
    docvalue_fields: ['id'],
    sort: [{ id: 'asc' }],
    ...(after ? { search_after: after } : {}),
    query: { bool: { filter: [text, { term: { county_slug: countySlug } }, { term: { tax_year: taxYear } }] } },
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
  // Each pending text with where its next page starts.
  let pending: { key: string; clause: Clause; after?: unknown[] }[] = [...texts].map(([key, clause]) => ({ key, clause }));
  for (const p of pending) out.set(p.key, []);
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (let i = 0; i < pending.length; i += TEXTS_PER_REQUEST) {
      const chunk = pending.slice(i, i + TEXTS_PER_REQUEST);
      const res = await client.msearch({
        index: alias,
        body: chunk.flatMap((p) => [{}, body(p.clause, countySlug, taxYear, page, p.after)]),
      });
      const answers = (res.body as { responses: Answer[] }).responses;
      chunk.forEach((p, j) => {
        const answer = answers[j]!;
        if (answer.error || !answer.hits) throw new Error(`the engine refused a text count: ${JSON.stringify(answer.error ?? answer)}`);
        const ids = out.get(p.key)!;
        for (const hit of answer.hits.hits) ids.push(hit.fields!.id![0]!);
        if (answer.hits.hits.length === page) next.push({ ...p, after: answer.hits.hits.at(-1)!.sort });
      });
    }
    pending = next;
  }
  return out;
}
