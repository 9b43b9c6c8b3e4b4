import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import type { EventInput } from '../../services/control/feed/events.ts';
import { savedSearchOwners } from '../../services/control/feed/saved-searches.ts';
import { countTextSearches, LoadCounter, type LoadCounts } from '../../services/engine/local-percolation/load-counts.ts';
import { compiledSavedSearches } from '../../services/engine/local-percolation/stored-searches.ts';
import { countSavedSearchMatches } from '../../services/engine/saved-search-counts.ts';
import { savedSearchQueriesFor } from '../../services/engine/saved-search-index.ts';
import { sharedTextMatches } from '../../services/engine/text-matches.ts';
import type { SpooledDoc } from '../load/two-pass-load.ts';
import { savedSearchMatchesLoaded } from '../events/saved-search-change.ts';

/**
 * A first load of a county and tax year, told to the saved searches: once it is searchable, each
 * search that matches some of it gets one saved_search.matches_loaded with its count. Thousands
 * of rows never become thousands of events, and an empty search (the whole market) is one event
 * like any other.
 *
 * The worker counts as pass 1 reads the file (LoadCounter, load-counts.ts): every search it can
 * judge whole, and the filters of every search with free text. Once searchable, the engine says
 * which documents of the county and year each distinct text matches, and counts alone only the
 * searches the worker could not judge. A first load pass 1 did not count (its county and year
 * looked loaded when it began) is counted from the spool between the passes; a job that did not
 * count at all (a retry publishing an earlier attempt's stage) or whose documents the engine
 * partly refused has the engine count every search.
 */

/** The counter for a load pass 1 is about to read, or undefined when no saved search needs counting. */
export async function startLoadCount(
  deps: { opensearch: Client; prefix: string },
  countySlug: string,
  taxYear: number,
): Promise<LoadCounter | undefined> {
  const searches = await compiledSavedSearches(deps.opensearch, deps.prefix);
  return searches.length > 0 ? new LoadCounter(searches, { countySlug, taxYear }) : undefined;
}

/** The same counts from the spool, when pass 1 did not take them. */
export async function countSpooled(
  deps: { opensearch: Client; prefix: string },
  docs: AsyncIterable<SpooledDoc>,
  countySlug: string,
  taxYear: number,
): Promise<LoadCounts | undefined> {
  const counter = await startLoadCount(deps, countySlug, taxYear);
  if (!counter) return undefined;
  for await (const doc of docs) counter.add(JSON.parse(doc.json) as Record<string, unknown>);
  return counter.finish();
}

export async function matchesLoadedEvents(
  deps: { opensearch: Client; sql: Sql; prefix: string },
  alias: string,
  loaded: EventInput,
  county: string,
  taxYear: number,
  counted?: LoadCounts,
): Promise<EventInput[]> {
  const counts = new Map<string, number>(counted?.counts);
  const add = (found: Map<string, number>) => {
    for (const [id, n] of found) counts.set(id, n);
  };
  if (counted) {
    if (counted.texts.size > 0) {
      const texts = new Map([...counted.texts].map(([key, group]) => [key, group.clause]));
      add(countTextSearches(counted, await sharedTextMatches(deps.opensearch, alias, texts, { countySlug: county, taxYear })));
    }
    add(await countSavedSearchMatches(deps.opensearch, alias, counted.engine, county, taxYear));
  } else
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
