import { listCounties } from '../control/ingest/counties.ts';
import { listSources } from '../control/ingest/sources.ts';
import { SALE_COLUMNS, SALE_SOURCE, type SaleDocument, mapSaleRow } from '../domain/sale-row.ts';
import { aliasName } from '../domain/datasets.ts';
import { floridaToday } from '../domain/florida-today.ts';
import { type BulkDeps, currentThroughEvent, withBuildDuckDb, writeSnapshot } from './build-certificates.ts';
import { documentPages, scopesOf, scopeQuery } from './certificate-pages.ts';
import type { BulkFile } from './entry.ts';
import { SALE_PARQUET } from './sale-columns.ts';
import { BUILD_WIDTH, sideBySide } from './side-by-side.ts';
import { writeFileSet } from './write-files.ts';

/**
 * The other datasets' snapshots: the certificate sale of each county and tax year (the row
 * GET /certificate-sales/search gives, its status as of the build's Florida day), and the county
 * directory and the source registry as one file each, read through the routes' own read functions.
 * The sales are built like the certificates: two file sets at a time, one DuckDB instance for all.
 */
export async function buildSaleSnapshots(deps: BulkDeps, only: { county?: string; taxYear?: number } = {}): Promise<BulkFile[]> {
  const scopes = await scopesOf(deps.opensearch, deps.config.INDEX_PREFIX, 'sales', only);
  return withBuildDuckDb(deps, async (shared) =>
    (
      await sideBySide(scopes, BUILD_WIDTH, (scope) =>
        writeSnapshot(shared, { dataset: 'certificate-sales', ...scope, columns: SALE_COLUMNS, parquet: SALE_PARQUET }, (now) =>
          documentPages<SaleDocument, Record<string, unknown>>(
            shared.opensearch,
            aliasName(shared.config.INDEX_PREFIX, 'sales'),
            scopeQuery(scope),
            SALE_SOURCE,
            (doc) => mapSaleRow(doc, floridaToday(now)),
          ),
        ),
      )
    ).flat(),
  );
}

/** The 67 counties and the source registry, one file set each (sources only once it has rows). */
export async function buildDirectorySnapshots(deps: BulkDeps): Promise<BulkFile[]> {
  const throughEvent = await currentThroughEvent(deps.sql);
  const now = deps.now?.() ?? new Date();
  // The control plane's rows, which GET /counties and /sources answer as they are.
  const counties = (await listCounties(deps.sql)) as unknown as Record<string, unknown>[];
  const files = await writeFileSet(
    deps.storage,
    {
      key: { dataset: 'counties', kind: 'snapshot', county: null, taxYear: null, day: null },
      columns: Object.keys(counties[0] ?? {}),
      parquet: 'infer',
      formats: ['parquet', 'ndjson', 'csv'],
      throughEvent,
      now,
    },
    oneShot(counties),
  );
  const first = await listSources(deps.sql, { limit: 1, offset: 0 });
  if (first.total > 0)
    files.push(
      ...(await writeFileSet(
        deps.storage,
        {
          key: { dataset: 'sources', kind: 'snapshot', county: null, taxYear: null, day: null },
          columns: Object.keys(first.rows[0] ?? {}),
          parquet: 'infer',
          formats: ['parquet', 'ndjson', 'csv'],
          throughEvent,
          now,
        },
        sourcePages(deps),
      )),
    );
  return files;
}

async function* oneShot<T>(rows: T[]): AsyncGenerator<T[]> {
  yield rows;
}

async function* sourcePages(deps: BulkDeps): AsyncGenerator<Record<string, unknown>[]> {
  for (let offset = 0; ; offset += 500) {
    const page = await listSources(deps.sql, { limit: 500, offset });
    yield page.rows as unknown as Record<string, unknown>[];
    if (offset + page.rows.length >= page.total || page.rows.length === 0) return;
  }
}
