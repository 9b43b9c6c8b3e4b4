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
 * API's own mapper: search_after on the unique id (the paging engine's afterBody), so the
 * walk never holds more than one page and never meets the result window.
 */
export async function* certificatePages(
  opensearch: Client,
  prefix: string,
  parcelBaseUrl: string,
  scope: { county: string; taxYear: number },
  pageRows = BULK_PAGE_ROWS,
): AsyncGenerator<CertificateRow[]> {
  const req: PageRequest = {
    query: { bool: { filter: [{ term: { county_slug: scope.county } }, { term: { tax_year: scope.taxYear } }] } },
    sort: BY_ID,
    limit: pageRows,
    offset: 0,
    source: CERTIFICATE_SOURCE,
  };
  const index = aliasName(prefix, 'certificates');
  let after: (number | string)[] | null = null;
  for (;;) {
    const { hits } = await search<CertificateDocument>(opensearch, index, afterBody(req, BY_ID, after, 0, pageRows));
    if (hits.length === 0) return;
    yield hits.map((h) => mapCertificate(h._source as CertificateDocument, parcelBaseUrl));
    if (hits.length < pageRows) return;
    after = (hits[hits.length - 1]!.sort ?? []) as (number | string)[];
  }
}

/** The county and tax year pairs that hold certificates (a terms aggregation, never the rows). */
export async function certificateScopes(opensearch: Client, prefix: string): Promise<{ county: string; taxYear: number }[]> {
  const res = await search<never>(opensearch, aliasName(prefix, 'certificates'), {
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
