import type { EventInput, EventType } from '../../services/control/feed/events.ts';

/**
 * What one certificate's change means to the saved searches, pure: the searches its document
 * matched before the change and those it matches after, beside the public event of the change
 * (certificate-change.ts), give each search's private event. A search matched on both sides
 * hears of the change only because a public field changed: a change of nothing public has no
 * public event and comes nowhere near here.
 */

export interface SearchOwner {
  clientId: string;
  name: string;
}

function typeOf(before: boolean, after: boolean): EventType {
  if (before && after) return 'saved_search.match_updated';
  return after ? 'saved_search.match_added' : 'saved_search.match_removed';
}

/**
 * The private events of one change, in the order of the searches' ids. `owners` holds the searches
 * that still exist: a match of a search deleted meanwhile records nothing.
 */
export function savedSearchChanges(
  change: EventInput,
  before: ReadonlySet<string>,
  after: ReadonlySet<string>,
  owners: ReadonlyMap<string, SearchOwner>,
): EventInput[] {
  const out: EventInput[] = [];
  for (const id of [...new Set([...before, ...after])].sort()) {
    const owner = owners.get(id);
    if (!owner) continue;
    out.push({
      type: typeOf(before.has(id), after.has(id)),
      countySlug: change.countySlug,
      data: { saved_search: { id, name: owner.name }, object: change.data.object, previous: change.data.previous },
      owner: { clientId: owner.clientId, savedSearchId: id },
    });
  }
  return out;
}

/** A first load's count for one search: one event for the whole county and tax year, not one per row. */
export function savedSearchMatchesLoaded(loaded: EventInput, search: { id: string; count: number }, owner: SearchOwner): EventInput {
  return {
    type: 'saved_search.matches_loaded',
    countySlug: loaded.countySlug,
    data: { saved_search: { id: search.id, name: owner.name }, object: { ...loaded.data.object, count: search.count }, previous: {} },
    owner: { clientId: owner.clientId, savedSearchId: search.id },
  };
}
