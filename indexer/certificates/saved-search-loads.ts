import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import type { EventInput } from '../../services/control/feed/events.ts';
import { savedSearchOwners } from '../../services/control/feed/saved-searches.ts';
import { countLoadedMatches } from '../../services/engine/local-percolation/match.ts';
import type { CompiledSearch } from '../../services/engine/local-percolation/stored-searches.ts';
import { countSavedSearchMatches } from '../../services/engine/saved-search-counts.ts';
import { savedSearchQueriesFor } from '../../services/engine/saved-search-index.ts';
import type { SpooledDoc } from '../load/two-pass-load.ts';
import { savedSearchMatchesLoaded } from '../events/saved-search-change.ts';

/**
 * A first load of a county and tax year, told to the saved searches: once it is searchable, each
 * search that matches some of it gets one saved_search.matches_loaded with its count. Thousands
 * of rows never become thousands of events, and an empty search (the whole market) is one event
 * like any other.
 *
 * The counts are taken in two steps. Between the passes, the file's documents in hand are counted
 * by the worker for every search it can judge exactly (countLoaded); once searchable, the engine
 * counts only the searches left undecided (their text clauses), with their own queries over the
 * county and year. A job that did not count between the passes (a retry publishing an earlier
 * attempt's stage) or whose documents the engine partly refused has the engine count them all.
 */

/** What the worker counted of a first load's documents before they were written. */
export interface LoadedCounts {
  counts: Map<string, number>;
  undecided: CompiledSearch[];
}

/** Documents judged in one batch: bounds the worker's memory on a county of 100,000 rows. */
const COUNT_BATCH = 5000;

export async function countLoaded(
  deps: { opensearch: Client; prefix: string },
  docs: AsyncIterable<SpooledDoc>,
  county: string,
  taxYear: number,
): Promise<LoadedCounts> {
  const counts = new Map<string, number>();
  const undecided = new Map<string, CompiledSearch>();
  let batch: Record<string, unknown>[] = [];
  const judge = async () => {
    const statuses = [...new Set(batch.map((d) => d.status as string))];
    const found = await countLoadedMatches(deps.opensearch, deps.prefix, batch, { counties: [county], taxYears: [taxYear], statuses });
    for (const [id, n] of found.counts) counts.set(id, (counts.get(id) ?? 0) + n);
    for (const s of found.undecided) undecided.set(s.id, s);
    batch = [];
  };
  for await (const doc of docs) {
    batch.push(JSON.parse(doc.json) as Record<string, unknown>);
    if (batch.length >= COUNT_BATCH) await judge();
  }
  if (batch.length > 0) await judge();
  // A search the engine counts is counted by it alone, over every document of the load.
  for (const id of undecided.keys()) counts.delete(id);
  return { counts, undecided: [...undecided.values()] };
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
  const add = (found: Map<string, number>) => {
    for (const [id, n] of found) counts.set(id, n);
  };
  if (counted) add(await countSavedSearchMatches(deps.opensearch, alias, counted.undecided, county, taxYear));
  else
    for await (const searches of savedSearchQueriesFor(deps.opensearch, deps.prefix, county, taxYear))
      add(await countSavedSearchMatches(deps.opensearch, alias, searches, county, taxYear));
  if (counts.size === 0) return [];
  const owners = await savedSearchOwners(deps.sql, [...counts.keys()]);
  const out: EventInput[] = [];
  for (const id of [...counts.keys()].sort()) {
    const owner = owners.get(id);
    if (owner) out.push(savedSearchMatchesLoaded(loaded, { id, count: counts.get(id)! }, owner));
  }
  return out;
}
