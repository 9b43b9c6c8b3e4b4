import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import type { StagedEvent } from '../../services/control/feed/event-stage.ts';
import type { EventInput } from '../../services/control/feed/events.ts';
import { savedSearchOwners } from '../../services/control/feed/saved-searches.ts';
import { matchSavedSearches } from '../../services/engine/local-percolation/match.ts';
import type { PercolationScope } from '../../services/engine/saved-search-index.ts';
import { savedSearchChanges } from '../events/saved-search-change.ts';

/**
 * The saved searches' events of one chunk of changed certificates: every document as it was and
 * as it is (each change's two side by side) is matched against the stored searches, the worker
 * judging the clauses it can and the engine's percolator the rest in one request
 * (services/engine/local-percolation/match.ts); the owners come from the control plane, which
 * leaves out a search deleted since its query was written.
 */

export interface PercolatedChange {
  docId: string;
  /** The indexed document (every stored field); undefined for a certificate new to the index. */
  before: object | undefined;
  after: object;
  /** The public event of the change. */
  event: EventInput;
}

interface Scoped {
  county_slug: string;
  tax_year: number;
  status: string;
}

/** The counties, tax years and statuses of the documents: a search naming none of one of them cannot match any. */
export function scopeOf(docs: readonly Scoped[]): PercolationScope {
  return {
    counties: [...new Set(docs.map((d) => d.county_slug))],
    taxYears: [...new Set(docs.map((d) => d.tax_year))],
    statuses: [...new Set(docs.map((d) => d.status))],
  };
}

/** Events handed to the stage at once: a broad county update gives a million (2,000 changes, each in hundreds of searches). */
const STAGE_CHUNK = 20_000;

/**
 * The saved searches' events of the changes, handed to `stage` a chunk at a time in the changes'
 * order, so the worker never holds a broad update's million events at once.
 */
export async function percolateChanges(
  deps: { opensearch: Client; sql: Sql; prefix: string },
  changes: readonly PercolatedChange[],
  stage: (events: StagedEvent[]) => Promise<void>,
  spent?: { engineMs?: number },
): Promise<void> {
  const docs: Record<string, unknown>[] = [];
  const slots = changes.map((c) => {
    const before = c.before === undefined ? -1 : docs.push(c.before as Record<string, unknown>) - 1;
    return { before, after: docs.push(c.after as Record<string, unknown>) - 1 };
  });
  const matches = await matchSavedSearches(deps.opensearch, deps.prefix, docs, scopeOf(docs as unknown as Scoped[]), spent);
  if (matches.size === 0) return;
  const bySlot = new Map<number, string[]>();
  for (const [id, matched] of matches)
    for (const slot of matched) {
      const ids = bySlot.get(slot);
      if (ids) ids.push(id);
      else bySlot.set(slot, [id]);
    }
  const owners = await savedSearchOwners(deps.sql, [...matches.keys()]);
  matches.clear();
  let chunk: StagedEvent[] = [];
  for (const [n, c] of changes.entries()) {
    const before = new Set(bySlot.get(slots[n]!.before) ?? []);
    const after = new Set(bySlot.get(slots[n]!.after) ?? []);
    for (const e of savedSearchChanges(c.event, before, after, owners)) chunk.push({ ...e, docId: c.docId });
    if (chunk.length >= STAGE_CHUNK) {
      await stage(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await stage(chunk);
}
