import type { Client } from '@opensearch-project/opensearch';
import { type County as CountyRow, updateCountyCoverage } from '../services/control/counties.ts';
import type { Database } from '../services/control/db.ts';
import { markIngested } from '../services/control/freshness.ts';
import { getSource, recordCheck, upsertSource } from '../services/control/sources.ts';
import { aliasName } from '../services/domain/datasets.ts';
import type { Channel, Registry, RegistryCounty } from '../services/domain/registry.ts';
import type { CertificateSaleRecord } from '../services/domain/records.ts';
import { buildSaleQuery } from './sales/build-sale-query.ts';
import { mapSale, type SaleAggregations } from './sales/map-sale.ts';

export interface BookkeepingDeps {
  opensearch: Client;
  db: Database;
  registry: Registry;
  prefix: string;
  replicas: number;
}

export interface BookkeepingResult {
  county: Pick<CountyRow, 'countySlug' | 'certificateCount' | 'coverageStatus' | 'lastImportAt'>;
  sale: CertificateSaleRecord | null;
}

/** Certificates of a county as search sees them: the number certificateCount must equal. */
export async function countCertificates(client: Client, prefix: string, countySlug?: string): Promise<number> {
  const res = await client.count({
    index: aliasName(prefix, 'certificates'),
    body: countySlug ? { query: { term: { county_slug: countySlug } } } : { query: { match_all: {} } },
  });
  return res.body.count;
}

/**
 * After a certificate file is searchable: the county's count and coverage, the
 * source row of that county-year, freshness, and the year's sale summary, all
 * read back from the index (documents, not rows read), so they agree with search.
 */
export async function recordCertificateIngest(
  deps: BookkeepingDeps,
  run: { county: RegistryCounty; taxYear: number; vendor: string; channel: Channel; at: string; today: string },
): Promise<BookkeepingResult> {
  const { county, taxYear, channel } = run;
  const certificateCount = await countCertificates(deps.opensearch, deps.prefix, county.slug);
  const sale = await deriveSale(deps, county, taxYear, channel, run.today, run.at);

  const updated = deps.db
    .transaction(() => {
      if (!getSource(deps.db, county.slug, taxYear))
        upsertSource(deps.db, deps.registry, {
          countySlug: county.slug,
          taxYear,
          vendor: channel.channel,
          sourceKind: 'cert_sale_portal',
          saleUrl: channel.saleUrl,
          active: true,
          notes: 'registered by the first ingest of this county-year',
        });
      recordCheck(deps.db, county.slug, taxYear, { ok: true, at: run.at });
      markIngested(deps.db, 'certificates', run.at);
      if (sale) markIngested(deps.db, 'sales', run.at);
      return updateCountyCoverage(deps.db, county.slug, { certificateCount, lastImportAt: run.at });
    })
    .immediate();
  return {
    county: {
      countySlug: updated.countySlug,
      certificateCount: updated.certificateCount,
      coverageStatus: updated.coverageStatus,
      lastImportAt: updated.lastImportAt,
    },
    sale,
  };
}

/** Records a failed load on the source row (lastError), when the county-year has one. */
export function recordFailedIngest(db: Database, countySlug: string, taxYear: number, error: string, at: string): void {
  if (getSource(db, countySlug, taxYear)) recordCheck(db, countySlug, taxYear, { ok: false, error, at });
}

export async function deriveSale(
  deps: BookkeepingDeps,
  county: RegistryCounty,
  taxYear: number,
  channel: Channel,
  today: string,
  at: string,
): Promise<CertificateSaleRecord | null> {
  const res = await deps.opensearch.search({
    index: aliasName(deps.prefix, 'certificates'),
    body: buildSaleQuery(county.slug, taxYear) as Record<string, unknown>,
  });
  const body = res.body as unknown as { hits: { total: { value: number } }; aggregations: Omit<SaleAggregations, 'total'> };
  const sale = mapSale(
    { total: body.hits.total.value, ...body.aggregations },
    {
      countySlug: county.slug,
      countyName: county.name,
      taxYear,
      vendor: channel.certificateVendor,
      // Null when the county sells on its own (county_local) or keys lists by hand: no URL is invented.
      saleUrl: channel.saleUrl,
      today,
      updatedAt: at,
    },
  );
  if (sale)
    await deps.opensearch.index({ index: aliasName(deps.prefix, 'sales'), id: sale.id, body: sale, refresh: true });
  return sale;
}
