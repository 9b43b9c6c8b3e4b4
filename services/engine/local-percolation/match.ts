import type { Client } from '@opensearch-project/opensearch';
import { type PercolationScope, percolate } from '../saved-search-index.ts';
import { type Bits, hasBit, isEmpty, or, positions } from './bits.ts';
import { DocBatch } from './evaluate.ts';
import { compiledSavedSearches, meetsScope } from './stored-searches.ts';

/**
 * Which saved searches match which documents: the worker decides every clause it can judge exactly
 * (evaluate.ts) and the engine's percolator the rest, asked only about the searches it left
 * undecided and only the documents it left undecided for them. A county update's changes meet
 * thousands of searches of filters on county, status, face and year in a few milliseconds of the
 * worker's time; the engine, which verifies each query it is asked at about a millisecond, sees
 * only the searches with text.
 */

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
  if (docs.length === 0) return out;
  const batch = new DocBatch(docs);
  const undecided = new Map<string, { t: Bits; u: Bits }>();
  let asked: Bits | undefined;
  for (const s of await compiledSavedSearches(client, prefix)) {
    if (!meetsScope(s, scope)) continue;
    const v = batch.evaluate(s.node);
    if (!isEmpty(v.u)) {
      undecided.set(s.id, v);
      asked = asked ? or(asked, v.u) : v.u;
    } else if (!isEmpty(v.t)) out.set(s.id, positions(v.t));
  }
  if (!asked) return out;
  const sent = positions(asked);
  const started = Date.now();
  const engine = await percolate(
    client,
    prefix,
    sent.map((i) => docs[i]!),
    scope,
    [...undecided.keys()],
  );
  if (spent) spent.engineMs = (spent.engineMs ?? 0) + Date.now() - started;
  for (const [id, v] of undecided) {
    const matched = new Set(positions(v.t));
    for (const slot of engine.get(id) ?? []) if (hasBit(v.u, sent[slot]!)) matched.add(sent[slot]!);
    if (matched.size > 0)
      out.set(
        id,
        [...matched].sort((a, b) => a - b),
      );
  }
  return out;
}
