import { buildLandsQuery } from './build-query.ts';
import { LANDS_SOURCE, type LandsDocument, mapLandsRow } from './map-row.ts';
import { LANDS_COLUMNS, type LandsRow } from './row.ts';
import { aliasName } from '../../../domain/datasets.ts';
import { type BulkDeps, withBuildDuckDb, writeSnapshot } from '../../../bulk/build-certificates.ts';
import { documentPages, scopesOf } from '../../../bulk/certificate-pages.ts';
import type { BulkFile } from '../../../bulk/entry.ts';
import { LANDS_PARQUET } from './parquet-columns.ts';
import { BUILD_WIDTH, sideBySide } from '../../../bulk/side-by-side.ts';

/**
 * The lands-available snapshots: per county and tax year, like the certificates they are
 * certificates of (each record is keyed by its certificate's county and tax year; a county's list
 * spans several tax years). Each file holds the rows GET /lands-available/search?county=&tax_year=
 * answers, matched by the route's own query builder and rendered by its own mapper, in id order.
 * Only scopes that hold records get files. Two file sets at a time, one DuckDB instance for all.
 */
export async function buildLandsSnapshots(deps: BulkDeps, only: { county?: string; taxYear?: number } = {}): Promise<BulkFile[]> {
  const scopes = await scopesOf(deps.opensearch, deps.config.INDEX_PREFIX, 'lands-available', only);
  return withBuildDuckDb(deps, async (shared) =>
    (
      await sideBySide(scopes, BUILD_WIDTH, (scope) => {
        const { query } = buildLandsQuery({ county: [scope.county], tax_year: [scope.taxYear], limit: 1, offset: 0 });
        return writeSnapshot(shared, { dataset: 'lands-available', ...scope, columns: LANDS_COLUMNS, parquet: LANDS_PARQUET }, () =>
          documentPages<LandsDocument, LandsRow>(
            shared.opensearch,
            aliasName(shared.config.INDEX_PREFIX, 'lands-available'),
            query,
            LANDS_SOURCE,
            (doc) => mapLandsRow(doc, shared.config.PARCEL_BASE_URL),
            shared.pageRows,
          ),
        );
      })
    ).flat(),
  );
}
