import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../../../config.ts';
import { aliasName } from '../../../domain/datasets.ts';
import type { Registry } from '../../../domain/registry.ts';
import type { PagingCaches } from '../../../engine/paging/caches.ts';
import { getById } from '../../../engine/search.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { InvalidParamsError, NotFoundError } from '../../errors.ts';
import { readFacets } from '../../query/facets.ts';
import { type ListRead, readList, readListWith } from '../read-list.ts';
import { buildByParcel } from './build-by-parcel.ts';
import { buildCertificateSearch } from './build-search.ts';
import { mapCertificate } from './map-row.ts';
import type { ByParcelParams, CertificateIdPath, CertificateSearchParams } from './params.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument, type CertificateRow } from './row.ts';

/**
 * Certificate reads: parameters in, rows and totals out, no Fastify. The REST
 * routes and the MCP tools call these same functions, so both return the same
 * rows in the same order.
 */

export interface CertificatesDeps {
  opensearch: Client;
  /** What deep pages remember between requests (one per process). */
  paging: PagingCaches;
  config: Pick<Config, 'INDEX_PREFIX' | 'PARCEL_BASE_URL'>;
  registry: Pick<Registry, 'county'>;
}

/**
 * A slug that names no Florida county is a mistake, not an empty county: a 400
 * naming it (a typo must never look like "no data"). A real county without
 * certificates is a 200 with no rows.
 */
export function assertCounties(registry: Pick<Registry, 'county'>, parameter: string, slugs: readonly string[] | undefined): void {
  const unknown = (slugs ?? []).filter((s) => registry.county(s) === undefined);
  if (unknown.length > 0)
    throw new InvalidParamsError(
      unknown.map((slug) => ({
        parameter,
        message: `unknown county slug ${JSON.stringify(slug)}; GET /api/v1/counties lists the 67 county slugs`,
      })),
    );
}

function certificatesIndex(deps: CertificatesDeps): string {
  return aliasName(deps.config.INDEX_PREFIX, 'certificates');
}

export async function readCertificateSearch(deps: CertificatesDeps, params: CertificateSearchParams): Promise<ListResult<CertificateRow>> {
  assertCounties(deps.registry, 'county', params.county);
  const plan = buildCertificateSearch(params);
  const index = certificatesIndex(deps);
  const list: ListRead<CertificateDocument, CertificateRow> = {
    query: plan.query,
    sort: plan.sort,
    page: params,
    source: CERTIFICATE_SOURCE,
    map: (doc) => mapCertificate(doc, deps.config.PARCEL_BASE_URL),
  };
  if (!plan.facetCounts) return readList(deps, index, list);
  // Facets are counted by their own size-0 searches, sent in the same msearch as the page's
  // first request: the engine's shard request cache keeps size-0 answers until the next
  // refresh, so the counts of a filter set are computed once while a user pages through it
  // (and a facet's own scope once for every search that shares it), and a deep page plan
  // never has to carry aggregations.
  const counted = await readListWith(deps, index, list, plan.facetCounts);
  return { ...counted.result, facets: readFacets(plan.facets, counted.beside) };
}

/** Every tax year of one parcel; an unknown parcel or a county without a feed is an empty list, never a 404. */
export async function readByParcel(deps: CertificatesDeps, params: ByParcelParams): Promise<ListResult<CertificateRow>> {
  assertCounties(deps.registry, 'county', [params.county]);
  const plan = buildByParcel(params);
  return readList(deps, certificatesIndex(deps), {
    query: plan.query,
    sort: plan.sort,
    page: params,
    source: CERTIFICATE_SOURCE,
    map: (doc: CertificateDocument) => mapCertificate(doc, deps.config.PARCEL_BASE_URL),
  });
}

const CERTIFICATE_ID = /^cert_[0-9a-f]{20}$/;

/**
 * One certificate. An id not of the form cert_<20 hex digits> names no
 * certificate: the same 404 as an unknown id (it is a path, and no certificate is
 * there), with the form spelled out; it never reaches the engine.
 */
export async function readCertificate(deps: CertificatesDeps, params: CertificateIdPath): Promise<ObjectResult<CertificateRow>> {
  const missing = () =>
    new NotFoundError(`no certificate has the id ${JSON.stringify(params.id)}; certificate ids look like cert_ followed by 20 hex digits`);
  if (!CERTIFICATE_ID.test(params.id)) throw missing();
  // A get by id, not a search: one shard, no query phase (a third of the time of an ids query).
  const doc = await getById<CertificateDocument>(deps.opensearch, certificatesIndex(deps), params.id, CERTIFICATE_SOURCE);
  if (!doc) throw missing();
  return { data: mapCertificate(doc, deps.config.PARCEL_BASE_URL) };
}
