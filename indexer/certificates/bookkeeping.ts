import type { Sql } from '../../services/control/db/sql.ts';
import type { Client } from '@opensearch-project/opensearch';
import { type County, setCountyVendor, updateCountyCoverage } from '../../services/control/ingest/counties.ts';
import { unresolvedFailure } from '../../services/control/ingest/ingest-runs.ts';
import { markIngested } from '../../services/control/ingest/freshness.ts';
import { getSource, newestSourceYear, recordCheck, upsertSource } from '../../services/control/ingest/sources.ts';
import { aliasName, controlName } from '../../services/domain/datasets.ts';
import type { CertificateSaleRecord } from '../../services/domain/records.ts';
import type { Channel, Registry, RegistryCounty } from '../../services/domain/registry.ts';
import { type FileRejectionCode, PUBLIC_REJECTION_MESSAGES, publicRejection } from '../errors.ts';
import { deriveSale } from '../sales/derive-sale.ts';

const REJECTION_CODES = Object.keys(PUBLIC_REJECTION_MESSAGES);

export interface BookkeepingDeps {
  opensearch: Client;
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  registry: Registry;
  prefix: string;
}

export interface CertificateBookkeeping {
  county: Pick<County, 'countySlug' | 'certificateCount' | 'coverageStatus' | 'lastImportAt'>;
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
 * source row of that county-year, freshness, and the year's sale summary (written
 * by sales/derive-sale.ts), all read back from the index (documents, not rows
 * read), so they agree with search.
 *
 * Files of two vendors for one county-year: every certificate loaded is counted (a file
 * replaces only the certificates it lists, whose ids do not name the vendor), and the
 * county-year's vendor is that of the latest file loaded: the sale summary, the source row
 * and, for the county's newest tax year, the county row all name it (docs/decisions.md).
 */
export async function recordCertificateIngest(
  deps: BookkeepingDeps,
  run: { county: RegistryCounty; taxYear: number; channel: Channel; at: string; today: string; file: string },
): Promise<CertificateBookkeeping> {
  const { county, taxYear, channel } = run;
  const certificateCount = await countCertificates(deps.opensearch, deps.prefix, county.slug);
  const sale = await deriveSale(deps, { county, taxYear, channel, today: run.today, at: run.at });

  const updated = await deps.sql.transaction(async (tx) => {
    // The count first: a county with searchable certificates is certificate_level whatever its
    // sources, so registering the first source below moves nothing, and the change feed tells
    // one coverage move (directory_only -> certificate_level), never one nobody could see.
    const coverage = await updateCountyCoverage(tx, county.slug, { certificateCount, lastImportAt: run.at });
    const source = await getSource(tx, county.slug, taxYear);
    if (!source)
      await upsertSource(tx, deps.registry, {
        countySlug: county.slug,
        taxYear,
        vendor: channel.channel,
        sourceKind: 'cert_sale_portal',
        saleUrl: channel.saleUrl,
        active: true,
        notes: 'registered by the first ingest of this county-year',
      });
    else if (source.vendor !== channel.channel)
      await upsertSource(tx, deps.registry, {
        countySlug: county.slug,
        taxYear,
        vendor: channel.channel,
        sourceKind: source.sourceKind,
        saleUrl: channel.saleUrl,
      });
    if ((await newestSourceYear(tx, county.slug)) === taxYear) await setCountyVendor(tx, county.slug, channel.channel);
    // Another file of this county-year that failed and has not loaded since keeps its error on the source.
    const stillFailing = await unresolvedFailure(tx, {
      dataset: controlName('certificates'),
      countySlug: county.slug,
      taxYear,
      exceptFile: run.file,
      codes: REJECTION_CODES,
    });
    await recordCheck(tx, county.slug, taxYear, {
      ok: true,
      at: run.at,
      stillFailing: stillFailing === null ? null : publicRejection(stillFailing as FileRejectionCode),
    });
    await markIngested(tx, controlName('certificates'), run.at);
    if (sale) await markIngested(tx, controlName('sales'), run.at);
    return coverage;
  });
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
