import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import type { EventInput } from '../../services/control/feed/events.ts';
import { savedSearchOwners } from '../../services/control/feed/saved-searches.ts';
import { countMatches } from '../../services/engine/local-percolation/match.ts';
import { countSavedSearchMatches, savedSearchQueriesFor } from '../../services/engine/saved-search-index.ts';
import type { SpooledDoc } from '../load/two-pass-load.ts';
import { savedSearchMatchesLoaded } from '../events/saved-search-change.ts';

/**
 * A first load of a county and tax year, told to the saved searches: once it is searchable, each
 * search that matches some of it gets one saved_search.matches_loaded with its count. Thousands
 * of rows never become thousands of events, and an empty search (the whole market) is one event
 * like any other.
 *
 * The counts are taken between the passes, from the file's documents in hand, before they are
 * written (countLoaded): the worker judges what it can and the percolator the searches' text over
 * the documents it left undecided (services/engine/local-percolation/match.ts). A job that did not
 * count between the passes (a retry publishing an earlier attempt's stage) or whose documents the
 * engine partly refused has the engine count every search that can match, over the county and
 * year as they are searchable.
 */

/** What the worker counted of a first load's documents before they were written: search id -> matches. */
export interface LoadedCounts {
  counts: Map<string, number>;
}

/** Documents judged in one batch: bounds the worker's memory and the percolate request on a county of 100,000 rows. */
const COUNT_BATCH = 5000;

export async function countLoaded(
  deps: { opensearch: Client; prefix: string },
  docs: AsyncIterable<SpooledDoc>,
  county: string,
  taxYear: number,
  spent?: { engineMs?: number },
): Promise<LoadedCounts> {
  const counts = new Map<string, number>();
  let batch: Record<string, unknown>[] = [];
  const judge = async () => {
    const statuses = [...new Set(batch.map((d) => d.status as string))];
    const scope = { counties: [county], taxYears: [taxYear], statuses };
    for (const [id, n] of await countMatches(deps.opensearch, deps.prefix, batch, scope, spent)) counts.set(id, (counts.get(id) ?? 0) + n);
    batch = [];
  };
  for await (const doc of docs) {
    batch.push(JSON.parse(doc.json) as Record<string, unknown>);
    if (batch.length >= COUNT_BATCH) await judge();
  }
  if (batch.length > 0) await judge();
  return { counts };
}

export async function matchesLoadedEvents(
  deps: { opensearch: Client; sql: Sql; prefix: string },
  alias: string,
  loaded: EventInput,
  county: string,
  taxYear: number,
  counted?: LoadedCounts,
): Promise<EventInput[]> {
  const counts = new Map<string, number>(counted?.counts);
  if (!counted)
    for await (const searches of savedSearchQueriesFor(deps.opensearch, deps.prefix, county, taxYear))
      for (const [id, n] of await countSavedSearchMatches(deps.opensearch, alias, searches, county, taxYear)) counts.set(id, n);
  if (counts.size === 0) return [];
  const owners = await savedSearchOwners(deps.sql, [...counts.keys()]);
  const out: EventInput[] = [];
  for (const id of [...counts.keys()].sort()) {
    const owner = owners.get(id);
    if (owner) out.push(savedSearchMatchesLoaded(loaded, { id, count: counts.get(id)! }, owner));
  }
  return out;
}
