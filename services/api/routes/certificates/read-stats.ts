import type { Sql } from '../../../control/db/sql.ts';
import { aliasName } from '../../../domain/datasets.ts';
import { CERTIFICATE_STATUSES, type CertificateStatus } from '../../../domain/records.ts';
import type { Registry } from '../../../domain/registry.ts';
import { type Freshness, readFreshness } from '../../../engine/freshness.ts';
import { search } from '../../../engine/search.ts';
import type { ObjectResult } from '../../envelope.ts';
import { buildCounts } from './build-counts.ts';
import { certificateFields, type FieldDictionary } from './fields.ts';
import type { CountsParams, NoParams } from './params.ts';
import { assertCounties, type CertificatesDeps } from './read.ts';

/** The certificate endpoints that answer one object: counts, fields, freshness. */

export interface StatusCount {
  status: CertificateStatus;
  count: number;
}

export interface CertificateCounts {
  county: string | null;
  tax_year: number | null;
  counts: StatusCount[];
}

/** Seven buckets, zeros included, by count descending then status name (spec 4.4). */
export function orderCounts(buckets: Record<string, { doc_count: number }> | undefined): StatusCount[] {
  return CERTIFICATE_STATUSES.map((status) => ({ status, count: buckets?.[status]?.doc_count ?? 0 })).sort(
    (a, b) => b.count - a.count || a.status.localeCompare(b.status),
  );
}

export async function readCounts(deps: CertificatesDeps, params: CountsParams): Promise<ObjectResult<CertificateCounts>> {
  if (params.county !== undefined) assertCounties(deps.registry, 'county', [params.county]);
  const res = await search<never>(deps.opensearch, aliasName(deps.config.INDEX_PREFIX, 'certificates'), buildCounts(params));
  const agg = res.aggregations?.status as { buckets: Record<string, { doc_count: number }> } | undefined;
  return { data: { county: params.county ?? null, tax_year: params.tax_year ?? null, counts: orderCounts(agg?.buckets) } };
}

export function readCertificateFields(deps: { registry: Pick<Registry, 'platforms'> }, _params: NoParams): ObjectResult<FieldDictionary> {
  return { data: certificateFields(deps.registry) };
}

export async function readCertificateFreshness(
  deps: Pick<CertificatesDeps, 'opensearch' | 'config'> & { sql: Sql },
  _params: NoParams,
): Promise<ObjectResult<Freshness>> {
  return { data: await readFreshness(deps.opensearch, deps.sql, deps.config.INDEX_PREFIX) };
}
