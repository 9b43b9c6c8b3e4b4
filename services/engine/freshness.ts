import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../domain/datasets.ts';
import { getDatasetState } from '../control/ingest/freshness.ts';
import type { Sql } from '../control/db/sql.ts';
import { search } from './search.ts';

/** The freshness object of spec 2.8: counts from the index, times from the control plane. */
export interface Freshness {
  certificate_count: number;
  latest_tax_year: number | null;
  last_ingested_at: string | null;
  last_source_success_at: string | null;
}

/**
 * certificate_count is the unfiltered search total (documents, not rows read), so
 * it always equals what certificate search returns without filters. The search
 * goes through engine/search.ts: bounded, and a failure is one typed EngineError.
 */
export async function readFreshness(opensearch: Client, sql: Sql, prefix: string): Promise<Freshness> {
  const res = await search<never>(opensearch, aliasName(prefix, 'certificates'), {
    size: 0,
    track_total_hits: true,
    aggs: { latest: { max: { field: 'tax_year' } } },
  });
  const latest = (res.aggregations?.latest as { value: number | null } | undefined)?.value ?? null;
  const state = await getDatasetState(sql, 'certificates');
  return {
    certificate_count: res.total,
    latest_tax_year: latest === null ? null : Math.round(latest),
    last_ingested_at: state.lastIngestedAt,
    last_source_success_at: state.lastSourceSuccessAt,
  };
}
