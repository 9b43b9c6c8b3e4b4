import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../domain/datasets.ts';
import type { Database } from '../control/db.ts';
import { getDatasetState } from '../control/freshness.ts';

/** The freshness object of spec 2.8: counts from the index, times from the control plane. */
export interface Freshness {
  certificate_count: number;
  latest_tax_year: number | null;
  last_ingested_at: string | null;
  last_source_success_at: string | null;
}

/**
 * certificate_count is the unfiltered search total (documents, not rows read), so
 * it always equals what certificate search returns without filters.
 */
export async function readFreshness(opensearch: Client, db: Database, prefix: string): Promise<Freshness> {
  const res = await opensearch.search({
    index: aliasName(prefix, 'certificates'),
    // The client's types omit `field` on metric aggregations; the DSL is right.
    body: { size: 0, track_total_hits: true, aggs: { latest: { max: { field: 'tax_year' } } } } as Record<string, unknown>,
  });
  const body = res.body as unknown as { hits: { total: { value: number } }; aggregations: { latest: { value: number | null } } };
  const state = getDatasetState(db, 'certificates');
  return {
    certificate_count: body.hits.total.value,
    latest_tax_year: body.aggregations.latest.value === null ? null : Math.round(body.aggregations.latest.value),
    last_ingested_at: state.lastIngestedAt,
    last_source_success_at: state.lastSourceSuccessAt,
  };
}
