import type { Client } from '@opensearch-project/opensearch';
import { EngineError } from './search.ts';

/**
 * Which certificates of some counties and tax years each free-text clause matches, by id: what the
 * worker needs to count a first load's searches with text itself, judging their other filters on
 * the documents it read. The engine's cost there is each text's fuzzy expansion over the index
 * (about half a millisecond a text, whatever the rows) and reading the ids of what it matches;
 * asking it for each search's count instead built a bucket per search under its text on every
 * segment, which cost half as much again (Miami-Dade 2025 at 1M: 400 ms against 270).
 *
 * First loads that become searchable together ask together (sharedTextMatches): a text several
 * of them ask is expanded once for all their counties and years, and each keeps its own ids.
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
type Answer = { hits?: { hits: Hit[] }; error?: unknown; status?: number };
type Pending = { key: string; clause: Clause; scopes: readonly Scope[]; sorted: boolean; after?: unknown[] };

/** One county and tax year. */
export interface Scope {
  countySlug: string;
  taxYear: number;
}

function inScope(scope: Scope): Clause {
  return { bool: { filter: [{ term: { county_slug: scope.countySlug } }, { term: { tax_year: scope.taxYear } }] } };
}

function body(p: Pending, page: number) {
  const where = p.scopes.length === 1 ? inScope(p.scopes[0]!) : { bool: { should: p.scopes.map(inScope), minimum_should_match: 1 } };
  return {
    size: page,
    track_total_hits: false,
    _source: false,
    stored_fields: '_none_',
    docvalue_fields: ['id'],
    sort: p.sorted ? [{ id: 'asc' }] : ['_doc'],
    ...(p.after ? { search_after: p.after } : {}),
    query: { bool: { filter: [p.clause, where] } },
  };
}

/** text key -> the ids of the certificates of its counties and years it matches (an empty list when none). */
export async function textMatches(
  client: Client,
  alias: string,
  texts: ReadonlyMap<string, { clause: Clause; scopes: readonly Scope[] }>,
  /** Ids a request returns for a text (tests make it small to read on). */
  page = PAGE,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let pending: Pending[] = [...texts].map(([key, t]) => ({ key, clause: t.clause, scopes: t.scopes, sorted: false }));
  for (const p of pending) out.set(p.key, []);
  while (pending.length > 0) {
    const next: Pending[] = [];
    for (let i = 0; i < pending.length; i += TEXTS_PER_REQUEST) {
      const chunk = pending.slice(i, i + TEXTS_PER_REQUEST);
      const res = await client.msearch({
        index: alias,
        body: chunk.flatMap((p) => [{}, body(p, page)]),
        // Only what is read: each hit's id and sort key, a third of the answer's bytes.
        filter_path: ['responses.hits.hits.fields.id', 'responses.hits.hits.sort', 'responses.error', 'responses.status'],
      });
      const answers = (res.body as { responses: Answer[] }).responses;
      // Each answer keeps its status, so none is dropped by the filter and they stay in order.
      if (answers.length !== chunk.length)
        throw new EngineError('text matches', 'refused', `the engine gave ${answers.length} answers to ${chunk.length} text searches`);
      chunk.forEach((p, j) => {
        const answer = answers[j]!;
        if (answer.error)
          throw new EngineError('text matches', 'refused', `the engine refused a text's matches: ${JSON.stringify(answer.error)}`);
        // A search matching nothing has no hits left once filtered.
        const hits = answer.hits?.hits ?? [];
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

interface Asked {
  texts: ReadonlyMap<string, Clause>;
  scope: Scope;
  resolve: (ids: Map<string, string[]>) => void;
  reject: (err: unknown) => void;
}

/**
 * One round of text matches at a time per alias: the loads that ask while a round runs are
 * answered together by the next. A load's answer may hold ids of the other loads of its round
 * (their counties and years), which are not among its documents.
 */
class TextRounds {
  private waiting: Asked[] = [];
  private running = false;

  constructor(
    private readonly client: Client,
    private readonly alias: string,
  ) {}

  ask(texts: ReadonlyMap<string, Clause>, scope: Scope): Promise<Map<string, string[]>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ texts, scope, resolve, reject });
      void this.next();
    });
  }

  private async next(): Promise<void> {
    if (this.running || this.waiting.length === 0) return;
    this.running = true;
    const round = this.waiting.splice(0);
    try {
      const texts = new Map<string, { clause: Clause; scopes: Scope[] }>();
      for (const asked of round)
        for (const [key, clause] of asked.texts) {
          const t = texts.get(key) ?? { clause, scopes: [] };
          texts.set(key, t);
          t.scopes.push(asked.scope);
        }
      const ids = await textMatches(this.client, this.alias, texts);
      for (const asked of round) asked.resolve(new Map([...asked.texts.keys()].map((key) => [key, ids.get(key)!])));
    } catch (err) {
      for (const asked of round) asked.reject(err);
    } finally {
      this.running = false;
      void this.next();
    }
  }
}

const rounds = new WeakMap<Client, Map<string, TextRounds>>();

/** textMatches for one county and year, asked together with the other loads asking meanwhile. */
export function sharedTextMatches(
  client: Client,
  alias: string,
  texts: ReadonlyMap<string, Clause>,
  scope: Scope,
): Promise<Map<string, string[]>> {
  let byAlias = rounds.get(client);
  if (!byAlias) {
    byAlias = new Map();
    rounds.set(client, byAlias);
  }
  let r = byAlias.get(alias);
  if (!r) {
    r = new TextRounds(client, alias);
    byAlias.set(alias, r);
  }
  return r.ask(texts, scope);
}
