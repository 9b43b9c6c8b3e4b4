import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../../services/domain/datasets.ts';
import type { CertificateSaleRecord } from '../../services/domain/records.ts';
import type { Channel, RegistryCounty } from '../../services/domain/registry.ts';
import { buildSaleQuery } from './build-sale-query.ts';
import { mapSale, type SaleAggregations } from './map-sale.ts';

export interface DeriveSaleDeps {
  opensearch: Client;
  prefix: string;
}

export interface SaleOf {
  county: RegistryCounty;
  taxYear: number;
  channel: Channel;
  /** YYYY-MM-DD the sale's status is judged on. */
  today: string;
  /** ISO timestamp stamped on the summary. */
  at: string;
}

/**
 * The sales summary of one county-year, derived from the certificates index as
 * search sees it (one aggregation, build-sale-query.ts -> map-sale.ts) and written
 * to the sales index, searchable at once. Null when the county-year has no
 * certificates.
 */
export async function deriveSale(deps: DeriveSaleDeps, of: SaleOf): Promise<CertificateSaleRecord | null> {
  const { county, taxYear, channel } = of;
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
      today: of.today,
      updatedAt: of.at,
    },
  );
  if (sale) await deps.opensearch.index({ index: aliasName(deps.prefix, 'sales'), id: sale.id, body: sale, refresh: true });
  return sale;
}
