import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../domain/datasets.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument, type CertificateRow, mapCertificate } from '../domain/certificate-row.ts';
import { afterBody, type PageRequest } from '../engine/paging/plan.ts';
import type { SortKey } from '../engine/paging/sort.ts';
import { search } from '../engine/search.ts';

/**
 * Rows a page of the walk fetches: large enough to keep round trips few (the engine's fixed cost
 * per search is a fifth of a 2,000-row page's), small enough to keep memory flat (two pages of
 * two file sets at once are a few MB).
 */
export const BULK_PAGE_ROWS = 5000;

/**
 * A page of a batch build may take longer than an interactive search's bound on a busy engine:
 * nobody waits on it, and failing it would throw away the whole file set.
 */
const BULK_SEARCH_TIMEOUT_MS = 60_000;

const BY_ID: SortKey[] = [{ field: 'id', order: 'asc' }];

/**
 * The id order on the certificates' long twin first (the first 13 hex digits of the id), then
 * the id itself for the rare tie: the same order, but the engine skips the documents before a
 * search_after on a long through its points instead of comparing every match's keyword, which
 * grows with the county (spec 2.2's ids are `cert_` and 20 lowercase hex digits, so the text
 * order and the number order agree).
 */
const BY_ID_ORDER: SortKey[] = [
  { field: 'id_order', order: 'asc' },
  { field: 'id', order: 'asc' },
];

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
    BY_ID_ORDER,
  );
}

/** One county and tax year's documents. */
export function scopeQuery(scope: { county: string; taxYear: number }): Record<string, unknown> {
  return { bool: { filter: [{ term: { county_slug: scope.county } }, { term: { tax_year: scope.taxYear } }] } };
}

/**
 * The documents of a query in id order, a page at a time, each through the dataset's own mapper:
 * search_after on the unique id (the paging engine's afterBody), so the walk never holds more
 * than two pages and never meets the result window. The next page is asked for before the
 * current one is handed on, so the engine reads it while the caller renders and compresses.
 */
export async function* documentPages<D, R>(
  opensearch: Client,
  index: string,
  query: Record<string, unknown>,
  source: readonly string[],
  map: (doc: D) => R,
  pageRows = BULK_PAGE_ROWS,
  sort: readonly SortKey[] = BY_ID,
): AsyncGenerator<R[]> {
  const req: PageRequest = { query, sort: [...sort], limit: pageRows, offset: 0, source };
  const read = (after: (number | string)[] | null) => {
    const page = search<D>(opensearch, index, afterBody(req, sort, after, 0, pageRows), { timeoutMs: BULK_SEARCH_TIMEOUT_MS });
    // A caller that stops early never awaits the page asked for ahead: its failure is nobody's.
    page.catch(() => undefined);
    return page;
  };
  let next = read(null);
  for (;;) {
    const page = await pageOf(next, map);
    if (page.rows.length === 0) return;
    const full = page.rows.length === pageRows;
    if (full) next = read(page.after);
    yield page.rows;
    if (!full) return;
  }
}

/**
 * A page's rows and where the next one starts, and nothing else: the engine's hits are garbage as
 * soon as they are mapped, not kept alive by the generator's frame while the caller writes.
 */
async function pageOf<D, R>(pending: ReturnType<typeof search<D>>, map: (doc: D) => R): Promise<{ rows: R[]; after: (number | string)[] }> {
  const { hits } = await pending;
  return { rows: hits.map((h) => map(h._source as D)), after: (hits[hits.length - 1]?.sort ?? []) as (number | string)[] };
}

/**
 * The county and tax year pairs of a per-county dataset that hold rows, narrowed to a county and
 * tax year when given (a terms aggregation over the narrowed query, never the rows).
 */
export async function scopesOf(
  opensearch: Client,
  prefix: string,
  dataset: 'certificates' | 'sales' | 'lands-available',
  only: { county?: string; taxYear?: number } = {},
): Promise<{ county: string; taxYear: number }[]> {
  const filter = [
    ...(only.county === undefined ? [] : [{ term: { county_slug: only.county } }]),
    ...(only.taxYear === undefined ? [] : [{ term: { tax_year: only.taxYear } }]),
  ];
  const res = await search<never>(opensearch, aliasName(prefix, dataset), {
    size: 0,
    query: { bool: { filter } },
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
