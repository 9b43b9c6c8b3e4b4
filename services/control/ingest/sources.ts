import { z } from 'zod';
import type { Registry } from '../../domain/registry.ts';
import { isoTimestamp } from '../db/time.ts';
import { byNameOrder, refreshCoverage, UnknownCountyError } from './counties.ts';
import type { Sql } from '../db/sql.ts';

/** The feed registry (spec 2.7): one row per county and tax year, and its check results. */

export const SourceSchema = z.object({
  id: z.string(),
  countyId: z.string(),
  countySlug: z.string(),
  taxYear: z.number().int(),
  vendor: z.string(),
  saleUrl: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  sourceKind: z.string(),
  requiresLogin: z.boolean(),
  lastCheckedAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastError: z
    .string()
    .nullable()
    .describe(
      'Why the last load of this feed failed, as "<code>: <sentence>" (e.g. "truncated_file: the county file was cut off before its end"); null after a success.',
    ),
  active: z.boolean(),
  notes: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Source = z.infer<typeof SourceSchema>;

export interface SourceRow {
  id: number;
  county_id: number;
  county_slug: string;
  tax_year: number;
  vendor: string;
  sale_url: string | null;
  download_url: string | null;
  source_kind: string;
  requires_login: number;
  last_checked_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  active: number;
  notes: string;
  created_at: string;
  updated_at: string;
}

export class InvalidSourceError extends Error {
  override name = 'InvalidSourceError';
  readonly code = 'invalid_source';
}

export class UnknownSourceError extends Error {
  override name = 'UnknownSourceError';
  readonly code = 'not_found';
  constructor(
    readonly countySlug: string,
    readonly taxYear: number,
  ) {
    super(`no source for county ${JSON.stringify(countySlug)} and tax year ${taxYear}`);
  }
}

export function mapSourceRow(row: SourceRow): Source {
  return {
    id: String(row.id),
    countyId: String(row.county_id),
    countySlug: row.county_slug,
    taxYear: row.tax_year,
    vendor: row.vendor,
    saleUrl: row.sale_url,
    downloadUrl: row.download_url,
    sourceKind: row.source_kind,
    requiresLogin: row.requires_login === 1,
    lastCheckedAt: row.last_checked_at,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    active: row.active === 1,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface SourceInput {
  countySlug: string;
  taxYear: number;
  /** A registry channel code: a platform code, county_local or manual. */
  vendor: string;
  /** e.g. cert_sale_portal, bulk_download */
  sourceKind: string;
  // Optional fields: omitted keeps the stored value on update; on insert they take the default shown.
  saleUrl?: string | null; // null
  downloadUrl?: string | null; // null
  requiresLogin?: boolean; // false
  active?: boolean; // true
  notes?: string; // ''
}

const SELECT = `SELECT s.*, c.county_slug FROM sources s JOIN counties c ON c.id = s.county_id`;

/**
 * Creates or updates the source of (county, tax year); check results are kept.
 * The county's coverage status is refreshed in the same transaction, since an
 * active source makes a county vendor_tracked.
 */
export async function upsertSource(sql: Sql, registry: Pick<Registry, 'vendorCodes'>, input: SourceInput): Promise<Source> {
  if (!Number.isInteger(input.taxYear) || input.taxYear < 1900 || input.taxYear > 2200)
    throw new InvalidSourceError(`taxYear must be a year, got ${input.taxYear}`);
  if (!registry.vendorCodes.has(input.vendor))
    throw new InvalidSourceError(`vendor must be one of ${[...registry.vendorCodes].join(', ')}; got ${JSON.stringify(input.vendor)}`);
  if (!/^[a-z][a-z0-9_]*$/.test(input.sourceKind))
    throw new InvalidSourceError(`sourceKind must be a snake_case code, got ${JSON.stringify(input.sourceKind)}`);

  const has = (v: unknown) => (v === undefined ? 0 : 1);
  const params = {
    slug: input.countySlug,
    taxYear: input.taxYear,
    vendor: input.vendor,
    sourceKind: input.sourceKind,
    saleUrl: input.saleUrl ?? null,
    hasSaleUrl: has(input.saleUrl),
    downloadUrl: input.downloadUrl ?? null,
    hasDownloadUrl: has(input.downloadUrl),
    requiresLogin: input.requiresLogin ? 1 : 0,
    hasRequiresLogin: has(input.requiresLogin),
    active: input.active === false ? 0 : 1,
    hasActive: has(input.active),
    notes: input.notes ?? '',
    hasNotes: has(input.notes),
  };
  const upsert = `
    INSERT INTO sources (county_id, tax_year, vendor, source_kind, sale_url, download_url, requires_login, active, notes)
    SELECT id, @taxYear, @vendor, @sourceKind, @saleUrl, @downloadUrl, @requiresLogin, @active, @notes
    FROM counties WHERE county_slug = @slug
    ON CONFLICT (county_id, tax_year) DO UPDATE SET
      vendor = excluded.vendor,
      source_kind = excluded.source_kind,
      sale_url = CASE WHEN @hasSaleUrl = 1 THEN excluded.sale_url ELSE sources.sale_url END,
      download_url = CASE WHEN @hasDownloadUrl = 1 THEN excluded.download_url ELSE sources.download_url END,
      requires_login = CASE WHEN @hasRequiresLogin = 1 THEN excluded.requires_login ELSE sources.requires_login END,
      active = CASE WHEN @hasActive = 1 THEN excluded.active ELSE sources.active END,
      notes = CASE WHEN @hasNotes = 1 THEN excluded.notes ELSE sources.notes END,
      updated_at = now_iso()
    RETURNING id`;
  return sql.transaction(async (tx) => {
    const row = await tx.get<{ id: number }>(upsert, params);
    if (!row) throw new UnknownCountyError(input.countySlug);
    await refreshCoverage(tx, input.countySlug);
    return mapSourceRow((await tx.get<SourceRow>(`${SELECT} WHERE s.id = ?`, [row.id]))!);
  });
}

export interface SourceCheck {
  ok: boolean;
  /**
   * Why the check failed; stored as lastError and served to every customer (spec 2.7),
   * so a code and a fixed sentence, never an error's own text (it held server paths and
   * the county file's first line).
   * The full text belongs to the ingest run (ingest-runs.ts, errorMessage).
   */
  error?: string;
  /**
   * A success that leaves lastError set: another file of the same county-year still fails
   * (ingest-runs.ts unresolvedFailure). lastSuccessAt moves all the same.
   */
  stillFailing?: string | null;
  at: Date | string;
}

/** Records one check of a feed: a success clears lastError (unless stillFailing), a failure keeps lastSuccessAt. */
export async function recordCheck(sql: Sql, countySlug: string, taxYear: number, result: SourceCheck): Promise<Source> {
  const at = isoTimestamp(result.at);
  const row = await sql.get<{ id: number }>(
    `
      UPDATE sources SET
        last_checked_at = @at,
        last_success_at = CASE WHEN @ok = 1 THEN @at ELSE last_success_at END,
        last_error = CASE WHEN @ok = 1 THEN CAST(@stillFailing AS TEXT) ELSE CAST(@error AS TEXT) END,
        updated_at = now_iso()
      WHERE tax_year = @taxYear AND county_id = (SELECT id FROM counties WHERE county_slug = @slug)
      RETURNING id`,
    {
      at,
      ok: result.ok ? 1 : 0,
      error: result.error ?? 'check failed',
      stillFailing: result.stillFailing ?? null,
      taxYear,
      slug: countySlug,
    },
  );
  if (!row) throw new UnknownSourceError(countySlug, taxYear);
  return mapSourceRow((await sql.get<SourceRow>(`${SELECT} WHERE s.id = ?`, [row.id]))!);
}

export interface SourceFilters {
  county?: string;
  /** Case-insensitive substring of the vendor code. */
  vendor?: string;
  sourceKind?: string;
  active?: boolean;
  limit?: number;
  offset?: number;
}

/** One page of sources (spec 4.11), by county name then newest tax year, with the total matching. */
export async function listSources(sql: Sql, filters: SourceFilters = {}): Promise<{ rows: Source[]; total: number }> {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  if (filters.county !== undefined) {
    where.push('c.county_slug = @county');
    params.county = filters.county;
  }
  if (filters.vendor !== undefined) {
    // strpos/instr rather than LIKE: a vendor filter containing % or _ must match literally.
    where.push(`${sql.dialect === 'sqlite' ? 'instr' : 'strpos'}(lower(s.vendor), lower(@vendor)) > 0`);
    params.vendor = filters.vendor;
  }
  if (filters.sourceKind !== undefined) {
    where.push('s.source_kind = @sourceKind');
    params.sourceKind = filters.sourceKind;
  }
  if (filters.active !== undefined) {
    where.push('s.active = @active');
    params.active = filters.active ? 1 : 0;
  }
  checkPage(filters.limit, filters.offset);
  const clause = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  // No filter, no parameters: a statement without any is given no values (PostgreSQL refuses extra ones).
  const total = (await sql.get<{ n: number }>(
    `SELECT count(*) AS n FROM sources s JOIN counties c ON c.id = s.county_id${clause}`,
    where.length ? params : undefined,
  ))!.n;
  const rows = await sql.all<SourceRow>(
    `${SELECT}${clause} ORDER BY ${byNameOrder(sql.dialect, 'c.county_name')}, s.tax_year DESC, s.id LIMIT @limit OFFSET @offset`,
    { ...params, limit: filters.limit ?? 100, offset: filters.offset ?? 0 },
  );
  return { rows: rows.map(mapSourceRow), total };
}

/** Every source of one county, newest tax year first; empty when it has none. */
export async function sourcesForCounty(sql: Sql, countySlug: string): Promise<Source[]> {
  const rows = await sql.all<SourceRow>(`${SELECT} WHERE c.county_slug = ? ORDER BY s.tax_year DESC`, [countySlug]);
  return rows.map(mapSourceRow);
}

export async function getSource(sql: Sql, countySlug: string, taxYear: number): Promise<Source | null> {
  const row = await sql.get<SourceRow>(`${SELECT} WHERE c.county_slug = ? AND s.tax_year = ?`, [countySlug, taxYear]);
  return row ? mapSourceRow(row) : null;
}

/** SQLite reads a negative LIMIT as "no limit"; refuse instead of returning everything. */
function checkPage(limit: number | undefined, offset: number | undefined): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0))
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  if (offset !== undefined && (!Number.isSafeInteger(offset) || offset < 0))
    throw new RangeError(`offset must be a non-negative integer, got ${offset}`);
}

/** The newest tax year a county has a source for; null when it has none. */
export async function newestSourceYear(sql: Sql, countySlug: string): Promise<number | null> {
  const row = await sql.get<{ year: number | null }>(
    'SELECT MAX(s.tax_year) AS year FROM sources s JOIN counties c ON c.id = s.county_id WHERE c.county_slug = ?',
    [countySlug],
  );
  return row?.year == null ? null : Number(row.year);
}
