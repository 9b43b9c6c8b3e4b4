import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../domain/datasets.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument, type CertificateRow, mapCertificate } from '../domain/certificate-row.ts';
import { afterBody, type PageRequest } from '../engine/paging/plan.ts';
import type { SortKey } from '../engine/paging/sort.ts';
import { search } from '../engine/search.ts';

/** Rows a page of the walk fetches: large enough to keep round trips few, small enough to keep memory flat. */
export const BULK_PAGE_ROWS = 2000;

const BY_ID: SortKey[] = [{ field: 'id', order: 'asc' }];

/**
 * Every certificate of one county and tax year in id order, a page at a time, rendered by the
 * API's own mapper.
 */
export function certificatePages(
  opensearch: Client,
  prefix: string,
  parcelBaseUrl: string,
  scope: { county: string; taxYear: number },
  pageRows = BULK_PAGE_ROWS,
): AsyncGenerator<CertificateRow[]> {
  return documentPages<CertificateDocument, CertificateRow>(
    opensearch,
    aliasName(prefix, 'certificates'),
    scopeQuery(scope),
    CERTIFICATE_SOURCE,
    (doc) => mapCertificate(doc, parcelBaseUrl),
    pageRows,
  );
}

/** One county and tax year's documents. */
export function scopeQuery(scope: { county: string; taxYear: number }): Record<string, unknown> {
  return { bool: { filter: [{ term: { county_slug: scope.county } }, { term: { tax_year: scope.taxYear } }] } };
}

/**
 * The documents of a query in id order, a page at a time, each through the dataset's own mapper:
 * search_after on the unique id (the paging engine's afterBody), so the walk never holds more
 * than one page and never meets the result window.
 */
export async function* documentPages<D, R>(
  opensearch: Client,
  index: string,
  query: Record<string, unknown>,
  source: readonly string[],
  map: (doc: D) => R,
  pageRows = BULK_PAGE_ROWS,
): AsyncGenerator<R[]> {
  const req: PageRequest = { query, sort: BY_ID, limit: pageRows, offset: 0, source };
  let after: (number | string)[] | null = null;
  for (;;) {
    const { hits } = await search<D>(opensearch, index, afterBody(req, BY_ID, after, 0, pageRows));
    if (hits.length === 0) return;
    yield hits.map((h) => map(h._source as D));
    if (hits.length < pageRows) return;
    after = (hits[hits.length - 1]!.sort ?? []) as (number | string)[];
  }
}

/** The county and tax year pairs that hold certificates (a terms aggregation, never the rows). */
export async function certificateScopes(
  opensearch: Client,
  prefix: string,
  dataset: 'certificates' | 'sales' = 'certificates',
): Promise<{ county: string; taxYear: number }[]> {
  const res = await search<never>(opensearch, aliasName(prefix, dataset), {
    size: 0,
    aggs: {
      county: {
        terms: { field: 'county_slug', size: 100 },
        aggs: { year: { terms: { field: 'tax_year', size: 100 } } },
      },
    },
  });
  const counties =
    (res.aggregations?.county as { buckets: { key: string; year: { buckets: { key: number }[] } }[] } | undefined)?.buckets ?? [];
  return counties.flatMap((c) => c.year.buckets.map((y) => ({ county: c.key, taxYear: Number(y.key) })));
}
