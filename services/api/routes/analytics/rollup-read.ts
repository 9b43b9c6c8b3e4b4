import type { Client } from '@opensearch-project/opensearch';
import { rollupAliasName } from '../../../engine/dataset-aliases.ts';
import { BUILT_KIND, ROLLUP_KIND_FIELD } from '../../../engine/rollups/rollup-docs.ts';
import { search } from '../../../engine/search.ts';
import { anyOf, anyOfIgnoringCase, type Clause } from '../../query/filters.ts';
import { placeFilters } from '../certificates/build-place-filters.ts';
import type { PlaceFilters } from '../certificates/params.ts';

/**
 * The analytic reads' rollup path (services/engine/rollups/rollup-docs.ts): one size-0 search of
 * the rollup documents whose aggregations add their counts, beside two markers read in the same
 * request, so the answer and the decision to trust it come from one view of the index. The
 * route's answer is then rebuilt in the shape of its scan's aggregations, and the scan's mapper
 * makes the public object: both paths share every line after the engine.
 *
 * Rollups answer a scope of county, tax_year and vendor only. Anything finer (a place filter, a
 * face or rate range) is a scan, and so is every scope when the index keeps no rollups (no built
 * marker: an index from before them) or the scope holds a county and tax year marked stale.
 */

export type AnalyticsPath = 'rollup' | 'scan';

export interface MarketScope extends PlaceFilters {
  county?: string[];
  tax_year?: number[];
  vendor?: string[];
}

/** Whether rollups can express the scope: no place filter. */
export function rollupsCover(p: MarketScope): boolean {
  return placeFilters(p).every(([, clause]) => clause === undefined);
}

/** The scope on the rollup fields: the same fragments as the scan's, on rollup.*. */
export function rollupScope(p: MarketScope): Clause[] {
  const out: Clause[] = [];
  if (p.county) out.push(anyOf('rollup.county_slug', p.county));
  if (p.tax_year) out.push(anyOf('rollup.tax_year', p.tax_year));
  if (p.vendor) out.push(anyOfIgnoringCase('rollup.vendor', p.vendor));
  return out;
}

export const kind = (k: string): Clause => ({ term: { [ROLLUP_KIND_FIELD]: k } });

/** The sum of the rollups' certificate counts under a bucket. */
export const COUNT = { count: { sum: { field: 'rollup.count' } } };

export const sumOf = (agg: unknown): number => Math.round((agg as { value?: number } | undefined)?.value ?? 0);

export interface RollupTerms {
  buckets: ({ key: string | number; count: unknown } & Record<string, unknown>)[];
  sum_other_doc_count?: number;
  doc_count_error_upper_bound?: number;
}

/** A terms answer over rollups as the scan's terms over certificates: each bucket's doc_count is its certificates. */
export function asCertificateTerms(t: RollupTerms | undefined, sub: (b: Record<string, unknown>) => Record<string, unknown> = () => ({})) {
  return {
    // Whether the size covered every value is the same question over rollups: passed on as asked.
    sum_other_doc_count: t?.sum_other_doc_count ?? 0,
    doc_count_error_upper_bound: t?.doc_count_error_upper_bound ?? 0,
    buckets: (t?.buckets ?? []).map((b) => ({ key: b.key, doc_count: sumOf(b.count), ...sub(b) })),
  };
}

/**
 * The rollups' aggregations for a scope, or null when rollups cannot answer it (not kept, or a
 * county and year of the scope is stale). `aggs` run under a filter of the scope.
 */
export async function readRollups(
  client: Client,
  prefix: string,
  scope: Clause[],
  aggs: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const res = await search<never>(client, rollupAliasName(prefix), {
    size: 0,
    track_total_hits: false,
    aggs: {
      built: { filter: kind(BUILT_KIND) },
      stale: { filter: { bool: { filter: [kind('stale'), ...scope] } } },
      scoped: { filter: { bool: { filter: scope } }, aggs },
    },
  });
  const a = res.aggregations as
    | { built?: { doc_count: number }; stale?: { doc_count: number }; scoped?: Record<string, unknown> }
    | undefined;
  if (!a || (a.built?.doc_count ?? 0) === 0 || (a.stale?.doc_count ?? 0) > 0) return null;
  return a.scoped ?? null;
}
