import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../../../domain/datasets.ts';
import { count, search } from '../../../engine/search.ts';

/**
 * What a portfolio write asks the engine: whether a holder group exists, and which of a
 * request's certificates are loaded. Holder groups live only on the certificates (each carries
 * its holder_group_id, services/domain/holder-groups.ts), so a group exists while a loaded
 * certificate names it, as GET /analytics/holders lists it, and holds what those certificates are.
 */

export interface EngineFactsDeps {
  opensearch: Client;
  config: { INDEX_PREFIX: string; PORTFOLIO_GROUP_MAX: number };
}

/** How many loaded certificates name the group (0: no such group). */
export async function holderGroupSize(deps: EngineFactsDeps, groupId: string): Promise<number> {
  const alias = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  return count(deps.opensearch, alias, { term: { holder_group_id: groupId } });
}

/** The facts a position keeps of its certificate. */
export interface LoadedCertificate {
  county_slug: string;
  certificate_number: string;
  tax_year: number;
}

/**
 * The loaded certificates among `ids`, by id: one ids query for the whole request (up to
 * 10,000 ids, the engine's largest page), reading three fields of each.
 */
export async function loadedCertificates(deps: EngineFactsDeps, ids: readonly string[]): Promise<Map<string, LoadedCertificate>> {
  const out = new Map<string, LoadedCertificate>();
  if (ids.length === 0) return out;
  const alias = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  const found = await search<LoadedCertificate>(deps.opensearch, alias, {
    query: { ids: { values: ids } },
    size: ids.length,
    track_total_hits: false,
    _source: ['county_slug', 'certificate_number', 'tax_year'],
  });
  for (const hit of found.hits) out.set(hit._id, hit._source);
  return out;
}
