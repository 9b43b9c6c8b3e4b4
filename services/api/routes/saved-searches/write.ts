import type { Sql } from '../../../control/db/sql.ts';
import { createSavedSearch, deleteSavedSearch, SavedSearchLimitError, updateSavedSearch } from '../../../control/feed/saved-searches.ts';
import type { Registry } from '../../../domain/registry.ts';
import { LimitReachedError, resourceLimit } from '../../writes/limits.ts';
import { deleted, type WriteResult } from '../../writes/respond.ts';
import type { CreateSavedSearchBody, UpdateSavedSearchBody } from './params.ts';
import { mapSavedSearch, ownSavedSearch, readSavedParams, type SavedSearchOwner, savedSearchNotFound } from './read.ts';
import type { SavedSearchRow } from './row.ts';

/** The saved-search writes (docs/writes.md): params checked as /certificates/search checks them. */
export interface SavedSearchWriteDeps {
  sql: Sql;
  registry: Pick<Registry, 'county'>;
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
  return { status: 200, data: mapSavedSearch(await ownSavedSearch(deps.sql, principal, id)) };
}

export async function deleteSavedSearchWrite(
  deps: SavedSearchWriteDeps,
  principal: SavedSearchOwner,
  id: string,
): Promise<WriteResult<{ id: string; deleted: true }>> {
  if (!(await deleteSavedSearch(deps.sql, principal.client.id, id))) throw savedSearchNotFound(id);
  return deleted(id);
}
