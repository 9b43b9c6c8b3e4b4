import type { Sql } from '../../../control/db/sql.ts';
import { getSavedSearch, listSavedSearches, type SavedSearch } from '../../../control/feed/saved-searches.ts';
import type { Principal } from '../../access/authenticate.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { InvalidParamsError, NotFoundError } from '../../errors.ts';
import { IssueList } from '../../params/issues.ts';
import { parseParams } from '../../params/parse.ts';
import type { Registry } from '../../../domain/registry.ts';
import { CERTIFICATE_ANSWER_PARAMS, CertificateSearchFilters, type CertificateSearchParams } from '../certificates/params.ts';
import { assertCounties, type CertificatesDeps, readCertificateSearch } from '../certificates/read.ts';
import type { CertificateRow } from '../certificates/row.ts';
import type { SavedSearchesParams, SavedSearchMatchesParams, SavedSearchPath } from './params.ts';
import type { SavedSearchRow } from './row.ts';

/** The one public rendering of a saved search. */
export function mapSavedSearch(s: SavedSearch): SavedSearchRow {
  return { id: s.id, name: s.name, params: s.params, created_at: s.createdAt, updated_at: s.updatedAt };
}

export function savedSearchNotFound(id: string): NotFoundError {
  return new NotFoundError(`no saved search ${JSON.stringify(id)}; GET /api/v1/saved-searches lists yours`);
}

/**
 * Who a saved search belongs to and under which plan: what these functions read of the caller.
 * The API passes its Principal; the account page passes the signed-in client with its plan, so
 * both run the same rules.
 */
export type SavedSearchOwner = Pick<Principal, 'client' | 'plan'>;

/** The client's own saved search; another client's is as unknown as a missing one (404). */
export async function ownSavedSearch(sql: Sql, principal: SavedSearchOwner, id: string): Promise<SavedSearch> {
  const found = await getSavedSearch(sql, id);
  if (!found || found.clientId !== principal.client.id) throw savedSearchNotFound(id);
  return found;
}

/**
 * A saved search's params, read exactly as /certificates/search reads its query string: the same
 * coercion (params/coerce.ts, JSON values as MCP arguments), the same schema and words, the same
 * county check. Each problem is named params.<name>; a search parameter that only orders or pages
 * (sort, limit, offset, facets, format) is refused by name, since /matches takes it per request.
 */
export function readSavedParams(registry: Pick<Registry, 'county'>, given: Record<string, unknown>): Record<string, unknown> {
  const issues = new IssueList();
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if ((CERTIFICATE_ANSWER_PARAMS as readonly string[]).includes(name))
      issues.add(name, 'is not part of a saved search; give it to GET /api/v1/saved-searches/{id}/matches');
    else filters[name] = value;
  }
  const parsed = parseParams(CertificateSearchFilters, CertificateSearchFilters.shape, filters, issues);
  if (parsed.error) throw prefixed(parsed.error);
  try {
    assertCounties(registry, 'county', parsed.value.county);
  } catch (err) {
    if (err instanceof InvalidParamsError) throw prefixed(err);
    throw err;
  }
  return parsed.value;
}

function prefixed(err: InvalidParamsError): InvalidParamsError {
  return new InvalidParamsError(
    err.issues.map((i) => ({ ...i, parameter: `params.${i.parameter}` })),
    err.omitted,
  );
}

/** GET /saved-searches: the calling client's saved searches, oldest first. */
export async function readSavedSearches(
  deps: { sql: Sql },
  principal: SavedSearchOwner,
  params: SavedSearchesParams,
): Promise<ListResult<SavedSearchRow>> {
  const { rows, total } = await listSavedSearches(deps.sql, principal.client.id, params);
  return { rows: rows.map(mapSavedSearch), limit: params.limit, offset: params.offset, total };
}

/** GET /saved-searches/{id}. */
export async function readSavedSearch(
  deps: { sql: Sql },
  principal: SavedSearchOwner,
  path: SavedSearchPath,
): Promise<ObjectResult<SavedSearchRow>> {
  return { data: mapSavedSearch(await ownSavedSearch(deps.sql, principal, path.id)) };
}

/**
 * GET /saved-searches/{id}/matches: the certificate search itself (read.ts, one query builder)
 * over the stored filters, read again by the search's schema, and this request's order, facets,
 * page and format. Its answer is /certificates/search's for the same parameters.
 */
export async function readSavedSearchMatches(
  deps: CertificatesDeps & { sql: Sql },
  principal: Principal,
  path: SavedSearchPath,
  params: SavedSearchMatchesParams,
): Promise<ListResult<CertificateRow>> {
  const saved = await ownSavedSearch(deps.sql, principal, path.id);
  const filters = readSavedParams(deps.registry, saved.params);
  return readCertificateSearch(deps, { ...filters, ...params } as CertificateSearchParams);
}
