import type { FacetBucket } from '../envelope.ts';
import { type Clause, listQuery, type NamedFilter } from './filters.ts';

/**
 * Facets with multi-select semantics: each field is counted over
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
  /** At least the number of distinct values the field can hold; or, with shardSize, how many of the largest to give. */
  size: number;
  /**
   * Values each shard counts, when the field holds too many to list them all (holder groups): at
   * least as many as the field holds, so the largest are the true largest and their counts exact.
   */
  shardSize?: number;
  /** A field naming each value for people (the value is an id): its most frequent value per bucket. */
  label?: string;
}

/**
 * The size-0 searches that count the requested facets: one over the search itself for the
 * facets whose field is not filtered, and one for each facet whose field is, over the text and
 * every other filter.
 *
 * Why one search per scope rather than one search with a global aggregation per facet: a
 * `global` aggregation visits every document of the index and tests its filter on each, where
 * the same filter as a query is answered from the index (at 10,000,000 certificates, the county
 * facet of one county's unredeemed certificates took about 200 ms that way and 29 ms this way).
 * And the engine's shard request cache keys a size-0 answer by its whole body: the county facet
 * counts every unredeemed certificate in Florida (its own filter left out), so in a body of its
 * own, the same for every county, it is counted once per refresh, not once per county.
 */
export function facetSearches(facets: readonly FacetField[], text: Clause | undefined, filters: readonly NamedFilter[]): Clause[] {
  const filtered = (facet: FacetField) => filters.some((f) => f.name === facet.name);
  const within = facets.filter((facet) => !filtered(facet));
  const searches = within.length > 0 ? [countSearch(listQuery(text, filters), within)] : [];
  for (const facet of facets.filter(filtered))
    searches.push(
      countSearch(
        listQuery(
          text,
          filters.filter((f) => f.name !== facet.name),
        ),
        [facet],
      ),
    );
  return searches;
}

function countSearch(query: Clause, facets: readonly FacetField[]): Clause {
  return {
    size: 0,
    track_total_hits: false,
    query,
    aggs: Object.fromEntries(
      facets.map((f) => [
        f.name,
        {
          terms: { field: f.field, size: f.size, shard_size: f.shardSize ?? f.size },
          ...(f.label ? { aggs: { label: { terms: { field: f.label, size: 1 } } } } : {}),
        },
      ]),
    ),
  };
}

interface TermsBucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
  label?: { buckets: { key: string }[] };
}

/**
 * The answers of facetSearches (in any order) -> for each facet, { value, count } most frequent
 * first (ties by value), zero counts dropped.
 */
export function readFacets(
  facets: readonly FacetField[],
  answers: readonly { aggregations?: Record<string, unknown> | undefined }[],
): Record<string, FacetBucket[]> {
  const out: Record<string, FacetBucket[]> = {};
  for (const facet of facets) {
    const agg = answers.find((a) => a.aggregations?.[facet.name] !== undefined)?.aggregations?.[facet.name] as
      | { buckets?: TermsBucket[] }
      | undefined;
    const buckets = agg?.buckets ?? [];
    out[facet.name] = buckets
      .filter((b) => b.doc_count > 0)
      .map((b) => {
        const label = b.label?.buckets[0]?.key;
        return { value: facetValue(facet, b), count: b.doc_count, ...(label !== undefined ? { label } : {}) };
      });
  }
  return out;
}

function facetValue(facet: FacetField, bucket: TermsBucket): string | number | boolean {
  if (facet.kind === 'boolean') return bucket.key_as_string === 'true' || bucket.key === 1;
  if (facet.kind === 'integer') return Number(bucket.key);
  return String(bucket.key);
}
