import type { Sql } from '../db/sql.ts';
import { isoTimestamp } from '../db/time.ts';
import { z } from 'zod';
import { changedFields } from '../../domain/changed-fields.ts';
import type { Registry } from '../../domain/registry.ts';
import { appendEvents } from '../feed/events.ts';

/** The county directory (spec 2.6) and the rule that derives each county's coverage. */

export const COVERAGE_STATUSES = ['directory_only', 'vendor_tracked', 'certificate_level'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

export const CountySchema = z.object({
  id: z.string(),
  countyName: z.string(),
  countySlug: z.string(),
  countyFips: z.string().nullable(),
  dorCountyNumber: z.string().nullable(),
  propertyAppraiserUrl: z.string().nullable(),
  taxCollectorUrl: z.string().nullable(),
  taxCertificateSaleUrl: z.string().nullable(),
  taxCertificateVendor: z.string().nullable(),
  coverageStatus: z.enum(COVERAGE_STATUSES),
  certificateCount: z.number().int(),
  lastImportAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type County = z.infer<typeof CountySchema>;

export interface CountyRow {
  id: number;
  county_name: string;
  county_slug: string;
  county_fips: string | null;
  dor_county_number: string | null;
  property_appraiser_url: string | null;
  tax_collector_url: string | null;
  tax_certificate_sale_url: string | null;
  tax_certificate_vendor: string | null;
  coverage_status: CoverageStatus;
  certificate_count: number;
  last_import_at: string | null;
  created_at: string;
  updated_at: string;
}

export class UnknownCountyError extends Error {
  override name = 'UnknownCountyError';
  readonly code = 'not_found';
  constructor(readonly slug: string) {
    super(`no county has the slug ${JSON.stringify(slug)}`);
  }
}

export function mapCountyRow(row: CountyRow): County {
  return {
    id: String(row.id),
    countyName: row.county_name,
    countySlug: row.county_slug,
    countyFips: row.county_fips,
    dorCountyNumber: row.dor_county_number,
    propertyAppraiserUrl: row.property_appraiser_url,
    taxCollectorUrl: row.tax_collector_url,
    taxCertificateSaleUrl: row.tax_certificate_sale_url,
    taxCertificateVendor: row.tax_certificate_vendor,
    coverageStatus: row.coverage_status,
    certificateCount: row.certificate_count,
    lastImportAt: row.last_import_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Searchable records win; a monitored feed comes next; otherwise only the directory is known. */
export function deriveCoverageStatus(certificateCount: number, hasActiveSource: boolean): CoverageStatus {
  if (certificateCount > 0) return 'certificate_level';
  return hasActiveSource ? 'vendor_tracked' : 'directory_only';
}

/**
 * The rule of deriveCoverageStatus in SQL, so count and status change in one statement.
 * countExpr is a parameter in an UPDATE that sets the count: SET sees the old row.
 */
const derivedStatus = (countExpr: string) => `CASE
  WHEN ${countExpr} > 0 THEN 'certificate_level'
  WHEN EXISTS (SELECT 1 FROM sources s WHERE s.county_id = counties.id AND s.active = 1) THEN 'vendor_tracked'
  ELSE 'directory_only' END`;

/**
 * Upserts the directory facts of every registry county. Runs on each open and
 * touches a row only when a fact changed; coverage columns (count, status, last
 * import) belong to ingest and are never reset here, nor is the vendor of a county with
 * certificates: that is the vendor of its newest tax year's files (setCountyVendor), so the
 * county, its source and its sale name the same one. Counties missing from the
 * registry are kept: the store never deletes.
 */
export async function seedCounties(sql: Sql, registry: Registry): Promise<number> {
  const upsert = `
    INSERT INTO counties (county_name, county_slug, county_fips, dor_county_number, tax_certificate_sale_url, tax_certificate_vendor)
    VALUES (@name, @slug, @fips, @dor, @saleUrl, @vendor)
    ON CONFLICT (county_slug) DO UPDATE SET
      county_name = excluded.county_name,
      county_fips = excluded.county_fips,
      dor_county_number = excluded.dor_county_number,
      tax_certificate_sale_url = excluded.tax_certificate_sale_url,
      tax_certificate_vendor = CASE WHEN counties.certificate_count > 0 THEN counties.tax_certificate_vendor ELSE excluded.tax_certificate_vendor END,
      updated_at = now_iso()
    WHERE counties.county_name IS DISTINCT FROM excluded.county_name
       OR counties.county_fips IS DISTINCT FROM excluded.county_fips
       OR counties.dor_county_number IS DISTINCT FROM excluded.dor_county_number
       OR counties.tax_certificate_sale_url IS DISTINCT FROM excluded.tax_certificate_sale_url
       OR (counties.certificate_count = 0 AND counties.tax_certificate_vendor IS DISTINCT FROM excluded.tax_certificate_vendor)`;
  return sql.transaction(async (tx) => {
    let changed = 0;
    for (const county of registry.counties) {
      const channel = registry.channel(county);
      const result = await tx.run(upsert, {
        name: county.name,
        slug: county.slug,
        fips: county.fips,
        dor: county.dor,
        // Only the sale portal is modeled; appraiser and collector URLs stay null rather than guessed.
        saleUrl: channel?.saleUrl ?? null,
        vendor: channel?.channel ?? null,
      });
      changed += result.changes;
    }
    return changed;
  });
}

/**
 * ORDER BY text for names, case-insensitive and byte-wise on both engines (SQLite's COLLATE
 * NOCASE order): PostgreSQL's default collation would otherwise skip punctuation and spaces.
 */
export function byNameOrder(dialect: Sql['dialect'], column: string): string {
  return dialect === 'sqlite' ? `lower(${column}), ${column}` : `lower(${column}) COLLATE "C", ${column} COLLATE "C"`;
}

/** All counties, alphabetical by name (spec 4.10). */
export async function listCounties(sql: Sql): Promise<County[]> {
  const rows = await sql.all<CountyRow>(`SELECT * FROM counties ORDER BY ${byNameOrder(sql.dialect, 'county_name')}`);
  return rows.map(mapCountyRow);
}

export async function getCounty(sql: Sql, slug: string): Promise<County | null> {
  const row = await sql.get<CountyRow>('SELECT * FROM counties WHERE county_slug = ?', [slug]);
  return row ? mapCountyRow(row) : null;
}

export interface CoverageUpdate {
  /** Certificates of this county now searchable (from OpenSearch). */
  certificateCount: number;
  /** When the import finished; omit to keep the stored value. */
  lastImportAt?: Date | string | null;
}

/**
 * Records an ingest's outcome for a county and derives its coverage status from it. A
 * coverage status that moves is recorded in the change feed in the same transaction
 * (recordCoverageChange), so the change and its event become visible together.
 */
export async function updateCountyCoverage(sql: Sql, slug: string, update: CoverageUpdate): Promise<County> {
  if (!Number.isSafeInteger(update.certificateCount) || update.certificateCount < 0)
    throw new RangeError(`certificateCount must be a non-negative integer, got ${update.certificateCount}`);
  const keepImport = update.lastImportAt === undefined;
  const lastImportAt = update.lastImportAt == null ? null : isoTimestamp(update.lastImportAt);
  // The CASTs tell PostgreSQL the parameters' types where no column gives them.
  const statement = `
      UPDATE counties SET
        certificate_count = @count,
        last_import_at = CASE WHEN @keepImport = 1 THEN last_import_at ELSE CAST(@lastImportAt AS TEXT) END,
        coverage_status = ${derivedStatus('CAST(@count AS BIGINT)')},
        updated_at = now_iso()
      WHERE county_slug = @slug
      RETURNING *`;
  // One write transaction: it reads before it writes, and the read and the write must see the same row.
  return sql.transaction(async (tx) => {
    const before = await getCounty(tx, slug);
    const row = await tx.get<CountyRow>(statement, { count: update.certificateCount, keepImport: keepImport ? 1 : 0, lastImportAt, slug });
    if (!row || !before) throw new UnknownCountyError(slug);
    const after = mapCountyRow(row);
    await recordCoverageChange(tx, before, after);
    return after;
  });
}

/** Recomputes a county's coverage status after its source rows changed (a move is recorded in the change feed). */
export async function refreshCoverage(sql: Sql, slug: string): Promise<County> {
  return sql.transaction(async (tx) => {
    const before = await getCounty(tx, slug);
    if (!before) throw new UnknownCountyError(slug);
    await tx.run(
      `UPDATE counties SET coverage_status = ${derivedStatus('certificate_count')}, updated_at = now_iso()
      WHERE county_slug = ? AND coverage_status IS DISTINCT FROM ${derivedStatus('certificate_count')}`,
      [slug],
    );
    const after = (await getCounty(tx, slug))!;
    await recordCoverageChange(tx, before, after);
    return after;
  });
}

/**
 * county.coverage_changed: a county's coverage is its coverageStatus, the
 * directory's own states of spec 3 (directory_only, vendor_tracked, certificate_level); a
 * move between them is the event. A count that grows inside certificate_level is not: the
 * certificates' own events tell it. The object is the county row as GET /counties/{county}
 * answers it; previous holds every field the same update changed, with its old value.
 */
async function recordCoverageChange(tx: Sql, before: County, after: County): Promise<void> {
  if (before.coverageStatus === after.coverageStatus) return;
  await appendEvents(tx, [
    { type: 'county.coverage_changed', countySlug: after.countySlug, data: { object: after, previous: changedFields(before, after) } },
  ]);
}

/**
 * The vendor of a county whose certificates are loaded: the vendor of its newest tax year's
 * source, set by the ingest bookkeeping (the registry's channel is only the default).
 */
export async function setCountyVendor(sql: Sql, slug: string, vendor: string): Promise<void> {
  await sql.run(
    `UPDATE counties SET tax_certificate_vendor = @vendor, updated_at = now_iso()
      WHERE county_slug = @slug AND tax_certificate_vendor IS DISTINCT FROM CAST(@vendor AS TEXT)`,
    { slug, vendor },
  );
}
