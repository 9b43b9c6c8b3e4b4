import type { Client } from '@opensearch-project/opensearch';
import { type PercolationScope, percolate } from '../saved-search-index.ts';
import { type Bits, count, hasBit, isEmpty, or, positions } from './bits.ts';
import { DocBatch, type Verdict } from './evaluate.ts';
import { compiledSavedSearches, meetsScope } from './stored-searches.ts';

/**
 * Which saved searches match which documents: the worker decides every clause it can judge exactly
 * (evaluate.ts) and the engine's percolator the rest, asked only about the searches it left
 * undecided and only the documents it left undecided for them. A county update's changes meet
 * thousands of searches of filters on county, status, face and year in a few milliseconds of the
 * worker's time; the engine, which verifies each query it is asked at about a millisecond, sees
 * only the searches with text, over a memory index of the documents in hand (a first load is
 * counted before it is written, so its text searches never walk the whole index's terms).
 */

/** What one search matches of a batch: the worker's verdict, and the engine's matches among its undecided documents. */
interface Judged {
  verdict: Verdict;
  /** Positions in the batch the engine matched, among `verdict.u`; empty when the worker decided every document. */
  engine: number[];
}

async function judge(
  client: Client,
  prefix: string,
  docs: readonly Record<string, unknown>[],
  scope: PercolationScope,
  spent?: { engineMs?: number },
): Promise<Map<string, Judged>> {
  const out = new Map<string, Judged>();
  if (docs.length === 0) return out;
  const batch = new DocBatch(docs);
  const undecided: string[] = [];
  let asked: Bits | undefined;
  for (const s of await compiledSavedSearches(client, prefix)) {
    if (!meetsScope(s, scope)) continue;
    const verdict = batch.evaluate(s.node);
    if (!isEmpty(verdict.u)) {
      undecided.push(s.id);
      asked = asked ? or(asked, verdict.u) : verdict.u;
    }
    if (!isEmpty(verdict.t) || !isEmpty(verdict.u)) out.set(s.id, { verdict, engine: [] });
  }
  if (!asked) return out;
  const sent = positions(asked);
  const started = Date.now();
  const engine = await percolate(
    client,
    prefix,
    sent.map((i) => docs[i]!),
    scope,
    undecided,
  );
  if (spent) spent.engineMs = (spent.engineMs ?? 0) + Date.now() - started;
  for (const id of undecided) {
    const judged = out.get(id)!;
    judged.engine = (engine.get(id) ?? []).map((slot) => sent[slot]!).filter((i) => hasBit(judged.verdict.u, i));
  }
  return out;
}

/**
 * search id -> the positions in `docs` of the documents it matches (every matching search).
 * `spent.engineMs` adds the time the engine's part took.
 */
export async function matchSavedSearches(
  client: Client,
  prefix: string,
  docs: readonly Record<string, unknown>[],
  scope: PercolationScope,
  spent?: { engineMs?: number },
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const [id, { verdict, engine }] of await judge(client, prefix, docs, scope, spent)) {
    const matched = engine.length === 0 ? positions(verdict.t) : [...new Set([...positions(verdict.t), ...engine])].sort((a, b) => a - b);
    if (matched.length > 0) out.set(id, matched);
  }
  return out;
}

/** search id -> how many of `docs` it matches (the searches that match none left out): a first load's counts. */
export async function countMatches(
  client: Client,
  prefix: string,
  docs: readonly Record<string, unknown>[],
  scope: PercolationScope,
  spent?: { engineMs?: number },
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [id, { verdict, engine }] of await judge(client, prefix, docs, scope, spent)) {
    const n = count(verdict.t) + engine.length;
    if (n > 0) out.set(id, n);
  }
  return out;
}
