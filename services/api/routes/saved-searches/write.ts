import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../../control/db/sql.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  type SavedSearch,
  SavedSearchLimitError,
  updateSavedSearch,
} from '../../../control/feed/saved-searches.ts';
import type { Registry } from '../../../domain/registry.ts';
import { deleteSavedSearchQuery, ensureSavedSearchIndex, putSavedSearchQuery } from '../../../engine/saved-search-index.ts';
import type { Logger } from '../../../logger.ts';
import { LimitReachedError, resourceLimit } from '../../writes/limits.ts';
import { deleted, type WriteResult } from '../../writes/respond.ts';
import type { CreateSavedSearchBody, UpdateSavedSearchBody } from './params.ts';
import { mapSavedSearch, ownSavedSearch, readSavedParams, type SavedSearchOwner, savedSearchNotFound } from './read.ts';
import { savedSearchQuery } from './percolator-query.ts';
import type { SavedSearchRow } from './row.ts';

/**
 * The saved-search writes (docs/writes.md): params checked as /certificates/search checks them.
 * The control plane keeps the search; the engine keeps its percolator query, written before the
 * answer so the next ingest already tells it its matches.
 */
export interface SavedSearchWriteDeps {
  sql: Sql;
  opensearch: Client;
  registry: Pick<Registry, 'county'>;
  config: { INDEX_PREFIX: string; OPENSEARCH_REPLICAS: number };
  logger: Logger;
}

async function writeQuery(deps: SavedSearchWriteDeps, search: SavedSearch): Promise<void> {
  // Made first, every time: a write to a missing index would have the engine create it with
  // fields guessed from the document, which percolates nothing. Writes are rare; a create that
  // finds the index is one cheap refusal.
  await ensureSavedSearchIndex(deps.opensearch, deps.config.INDEX_PREFIX, deps.config.OPENSEARCH_REPLICAS);
  await putSavedSearchQuery(deps.opensearch, deps.config.INDEX_PREFIX, savedSearchQuery(search));
}

export async function createSavedSearchWrite(
  deps: SavedSearchWriteDeps,
  principal: SavedSearchOwner,
  body: CreateSavedSearchBody,
): Promise<WriteResult<SavedSearchRow>> {
  const params = readSavedParams(deps.registry, body.params);
  const limit = resourceLimit('saved_searches', principal.plan);
  try {
    const made = await createSavedSearch(deps.sql, { clientId: principal.client.id, name: body.name, params, limit });
    try {
      await writeQuery(deps, made);
    } catch (err) {
      // A search the engine cannot percolate would never alert: it is not kept, and the 5xx frees a retry.
      await deleteSavedSearch(deps.sql, principal.client.id, made.id);
      throw err;
    }
    return { status: 201, data: mapSavedSearch(made) };
  } catch (err) {
    if (err instanceof SavedSearchLimitError) throw new LimitReachedError('saved_searches', limit, principal.plan.code);
    throw err;
  }
}

export async function updateSavedSearchWrite(
  deps: SavedSearchWriteDeps,
  principal: SavedSearchOwner,
  id: string,
  body: UpdateSavedSearchBody,
): Promise<WriteResult<SavedSearchRow>> {
  const params = body.params === undefined ? undefined : readSavedParams(deps.registry, body.params);
  if (!(await updateSavedSearch(deps.sql, principal.client.id, id, { name: body.name, params }))) throw savedSearchNotFound(id);
  const updated = await ownSavedSearch(deps.sql, principal, id);
  // Of two concurrent changes the engine keeps the later revision's query, as the control plane keeps its row.
  if (params !== undefined) await writeQuery(deps, updated);
  return { status: 200, data: mapSavedSearch(updated) };
}

export async function deleteSavedSearchWrite(
  deps: SavedSearchWriteDeps,
  principal: SavedSearchOwner,
  id: string,
): Promise<WriteResult<{ id: string; deleted: true }>> {
  if (!(await deleteSavedSearch(deps.sql, principal.client.id, id))) throw savedSearchNotFound(id);
  try {
    await deleteSavedSearchQuery(deps.opensearch, deps.config.INDEX_PREFIX, id);
  } catch (err) {
    // Harmless if left: a match of a search with no row records nothing. The next start's rebuild removes it.
    deps.logger.warn({ err: (err as Error).message, savedSearch: id }, 'the deleted saved search stays in the engine for now');
  }
  return deleted(id);
}
