import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import type { EventInput } from '../../services/control/feed/events.ts';
import { savedSearchOwners } from '../../services/control/feed/saved-searches.ts';
import { countSavedSearchMatches, savedSearchQueriesFor } from '../../services/engine/saved-search-index.ts';
import { savedSearchMatchesLoaded } from '../events/saved-search-change.ts';

/**
 * A first load of a county and tax year, told to the saved searches: once it is searchable, each
 * search that can match it (its counties and tax years allow it) counts its matches with its own
 * query, and each that gained some gets one saved_search.matches_loaded. Thousands of rows never
 * become thousands of events, and an empty search (the whole market) is one event like any other.
 */
export async function matchesLoadedEvents(
  deps: { opensearch: Client; sql: Sql; prefix: string },
  alias: string,
  loaded: EventInput,
  county: string,
  taxYear: number,
): Promise<EventInput[]> {
  const out: EventInput[] = [];
  for await (const searches of savedSearchQueriesFor(deps.opensearch, deps.prefix, county, taxYear)) {
    const counts = await countSavedSearchMatches(deps.opensearch, alias, searches, county, taxYear);
    if (counts.size === 0) continue;
    const owners = await savedSearchOwners(deps.sql, [...counts.keys()]);
    for (const [id, count] of counts) {
      const owner = owners.get(id);
      if (owner) out.push(savedSearchMatchesLoaded(loaded, { id, count }, owner));
    }
  }
  return out;
}
