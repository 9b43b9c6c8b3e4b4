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
import type { ByParcelParams, CertificateByIdParams, CertificateSearchParams, CertificateView } from './params.ts';
import { sortProblem } from './params.ts';
import { readDistancePage } from './read-distance.ts';
import type { CertificateDocument } from './row.ts';
import { type CertificateViewOptions, type ExpandedCertificateRow, type ViewedRow, viewRow, viewSource } from './row-view.ts';

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

/** The view a request asks for: expand, and geometry for a GeoJSON answer. */
function viewOf(params: { expand?: CertificateView['expand']; format?: string }): CertificateViewOptions {
  return { ...(params.expand ? { expand: params.expand } : {}), geometry: params.format === 'geojson' };
}

/** Viewed rows as a list answer: the rows, and their points when the answer is GeoJSON. */
function viewed(result: ListResult<ViewedRow>, view: CertificateViewOptions): ListResult<ExpandedCertificateRow> {
  const { rows, ...rest } = result;
  return { ...rest, rows: rows.map((r) => r.row), ...(view.geometry ? { points: rows.map((r) => r.point) } : {}) };
}

export async function readCertificateSearch(
  deps: CertificatesDeps,
  params: CertificateSearchParams,
): Promise<ListResult<ExpandedCertificateRow>> {
  assertCounties(deps.registry, 'county', params.county);
  // The search's schema checks this too; a saved search's /matches meets sort and near here first.
  const problem = sortProblem(params);
  if (problem) throw new InvalidParamsError([{ parameter: 'sort', message: problem }]);
  const view = viewOf(params);
  return viewed(await readSearchRows(deps, params, view), view);
}

async function readSearchRows(deps: CertificatesDeps, params: CertificateSearchParams, view: CertificateViewOptions) {
  const plan = buildCertificateSearch(params);
  const index = certificatesIndex(deps);
  const list: ListRead<CertificateDocument, ViewedRow> = {
    query: plan.query,
    sort: plan.sort,
    page: params,
    source: viewSource(view),
    map: (doc) => viewRow(doc, deps.config.PARCEL_BASE_URL, view),
  };
  if (plan.distanceSort) {
    const read = await readDistancePage(deps, index, list, plan.distanceSort, plan.facetCounts ?? []);
    return plan.facetCounts ? { ...read.result, facets: readFacets(plan.facets, read.beside) } : read.result;
  }
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
export async function readByParcel(deps: CertificatesDeps, params: ByParcelParams): Promise<ListResult<ExpandedCertificateRow>> {
  assertCounties(deps.registry, 'county', [params.county]);
  const plan = buildByParcel(params);
  const view = viewOf(params);
  const read = await readList(deps, certificatesIndex(deps), {
    query: plan.query,
    sort: plan.sort,
    page: params,
    source: viewSource(view),
    map: (doc: CertificateDocument) => viewRow(doc, deps.config.PARCEL_BASE_URL, view),
  });
  return viewed(read, view);
}

const CERTIFICATE_ID = /^cert_[0-9a-f]{20}$/;

/**
 * One certificate. An id not of the form cert_<20 hex digits> names no
 * certificate: the same 404 as an unknown id (it is a path, and no certificate is
 * there), with the form spelled out; it never reaches the engine.
 */
export async function readCertificate(
  deps: CertificatesDeps,
  params: CertificateByIdParams & { format?: CertificateView['format'] },
): Promise<ObjectResult<ExpandedCertificateRow>> {
  const missing = () =>
    new NotFoundError(`no certificate has the id ${JSON.stringify(params.id)}; certificate ids look like cert_ followed by 20 hex digits`);
  if (!CERTIFICATE_ID.test(params.id)) throw missing();
  // A get by id, not a search: one shard, no query phase (a third of the time of an ids query).
  const view = viewOf(params);
  const doc = await getById<CertificateDocument>(deps.opensearch, certificatesIndex(deps), params.id, viewSource(view));
  if (!doc) throw missing();
  const { row, point } = viewRow(doc, deps.config.PARCEL_BASE_URL, view);
  return { data: row, ...(view.geometry ? { point } : {}) };
}
