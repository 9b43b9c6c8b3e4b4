import { savedSearchesAfter } from '../../../control/feed/saved-searches.ts';
import {
  deleteSavedSearchQuery,
  ensureSavedSearchIndex,
  putSavedSearchQueries,
  savedSearchIds,
} from '../../../engine/saved-search-index.ts';
import type { SavedSearchWriteDeps } from './write.ts';
import { savedSearchQuery } from './percolator-query.ts';

/**
 * Brings the engine's percolator queries in line with the control plane, when the API starts: a
 * new certificates mapping version starts an empty index, and a change to the search's builder
 * changes what every stored query should be. Each search's query is written again at its
 * revision (a concurrent change of a newer revision wins), and a query whose search is gone is
 * removed. Returns how many searches there are.
 */
export async function syncSavedSearches(deps: Omit<SavedSearchWriteDeps, 'registry'>): Promise<number> {
  const prefix = deps.config.INDEX_PREFIX;
  await ensureSavedSearchIndex(deps.opensearch, prefix, deps.config.OPENSEARCH_REPLICAS);
  const kept = new Set<string>();
  for (let after = ''; ; ) {
    const page = await savedSearchesAfter(deps.sql, after, 1000);
    if (page.length === 0) break;
    await putSavedSearchQueries(deps.opensearch, prefix, page.map(savedSearchQuery));
    for (const s of page) kept.add(s.id);
    after = page.at(-1)!.id;
  }
  for await (const ids of savedSearchIds(deps.opensearch, prefix))
    for (const id of ids) if (!kept.has(id)) await deleteSavedSearchQuery(deps.opensearch, prefix, id);
  return kept.size;
}
