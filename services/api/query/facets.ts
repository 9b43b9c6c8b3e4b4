import type { FacetBucket } from '../envelope.ts';
import { type Clause, listQuery, type NamedFilter } from './filters.ts';

/**
 * Facets with multi-select semantics (issue 9 item 6): each field is counted over
 * every filter of the search except its own, so a county picker still shows the
 * other counties, and a count always equals the total of the search that adds
 * that value (replacing the field's own filter).
 *
 * Exactness on several shards: a terms aggregation is exact when every shard
 * returns all of its values, so size and shard_size are set to the number of
 * values the field can hold at all (given per facet). The engine sizes its
 * queues by the values actually present, so a generous bound costs nothing.
 */

export interface FacetField {
  /** Public name: the parameter whose filter this facet mirrors. */
  name: string;
  /** Indexed field counted. */
  field: string;
  /** How a value is written back: as the filter accepts it. */
  kind: 'string' | 'integer' | 'boolean';
  /** At least the number of distinct values the field can hold. */
  size: number;
}

/**
 * The aggregations for the requested facets. A facet whose field is not filtered
 * counts within the search itself; one whose field is filtered counts under a
 * global aggregation re-filtered by the text and every other filter.
 */
export function facetAggs(facets: readonly FacetField[], text: Clause | undefined, filters: readonly NamedFilter[]): Clause {
  const aggs: Clause = {};
  for (const facet of facets) {
    const values = { terms: { field: facet.field, size: facet.size, shard_size: facet.size } };
    const own = filters.some((f) => f.name === facet.name);
    aggs[facet.name] = own
      ? {
          global: {},
          aggs: {
            scope: {
              filter: listQuery(
                text,
                filters.filter((f) => f.name !== facet.name),
              ),
              aggs: { values },
            },
          },
        }
      : { filter: { match_all: {} }, aggs: { values } };
  }
  return aggs;
}

interface TermsBucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
}

interface FacetAggResult {
  values?: { buckets: TermsBucket[] };
  scope?: { values: { buckets: TermsBucket[] } };
}

/** Engine buckets -> { value, count }, most frequent first (ties by value), zero counts dropped. */
export function readFacets(facets: readonly FacetField[], aggregations: Record<string, unknown> | undefined): Record<string, FacetBucket[]> {
  const out: Record<string, FacetBucket[]> = {};
  for (const facet of facets) {
    const agg = aggregations?.[facet.name] as FacetAggResult | undefined;
    const buckets = agg?.values?.buckets ?? agg?.scope?.values.buckets ?? [];
    out[facet.name] = buckets.filter((b) => b.doc_count > 0).map((b) => ({ value: facetValue(facet, b), count: b.doc_count }));
  }
  return out;
}

function facetValue(facet: FacetField, bucket: TermsBucket): string | number | boolean {
  if (facet.kind === 'boolean') return bucket.key_as_string === 'true' || bucket.key === 1;
  if (facet.kind === 'integer') return Number(bucket.key);
  return String(bucket.key);
}
