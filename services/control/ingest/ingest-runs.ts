import type { ControlDataset } from '../../domain/datasets.ts';
import { isoTimestamp } from '../db/time.ts';
import type { Sql } from '../db/sql.ts';

/** One row per ingest job (one file); a retry of the same job id reuses the row. */

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface IngestRun {
  id: string;
  jobId: string;
  dataset: ControlDataset;
  countySlug: string | null;
  taxYear: number | null;
  vendor: string | null;
  filePath: string;
  fileSha256: string | null;
  status: RunStatus;
  /** 1 on the first start, incremented by each retry of the same job id. */
  attempts: number;
  rowsRead: number;
  rowsIndexed: number;
  rowsUpdated: number;
  rowsQuarantined: number;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: string;
  finishedAt: string | null;
}

interface RunRow {
  id: number;
  job_id: string;
  dataset: ControlDataset;
  county_slug: string | null;
  tax_year: number | null;
  vendor: string | null;
  file_path: string;
  file_sha256: string | null;
  status: RunStatus;
  attempts: number;
  rows_read: number;
  rows_indexed: number;
  rows_updated: number;
  rows_quarantined: number;
  error_code: string | null;
  error_message: string | null;
  started_at: string;
  finished_at: string | null;
}

export class UnknownRunError extends Error {
  override name = 'UnknownRunError';
  readonly code = 'not_found';
  constructor(readonly jobId: string) {
    super(`no ingest run has the job id ${JSON.stringify(jobId)}`);
  }
}

export function mapRunRow(row: RunRow): IngestRun {
  return {
    id: String(row.id),
    jobId: row.job_id,
    dataset: row.dataset,
    countySlug: row.county_slug,
    taxYear: row.tax_year,
    vendor: row.vendor,
    filePath: row.file_path,
    fileSha256: row.file_sha256,
    status: row.status,
    attempts: row.attempts,
    rowsRead: row.rows_read,
    rowsIndexed: row.rows_indexed,
    rowsUpdated: row.rows_updated,
    rowsQuarantined: row.rows_quarantined,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export interface StartRun {
  jobId: string;
  dataset: ControlDataset;
  filePath: string;
  fileSha256?: string | null;
  countySlug?: string | null;
  taxYear?: number | null;
  vendor?: string | null;
  at?: Date | string;
}

/**
 * Marks a job as running. A retry (same job id) resets status, counts and error
 * and counts the attempt, so the row always describes the latest attempt.
 */
export async function startRun(sql: Sql, input: StartRun): Promise<IngestRun> {
  const row = await sql.get<RunRow>(
    `
      INSERT INTO ingest_runs (job_id, dataset, county_slug, tax_year, vendor, file_path, file_sha256, started_at)
      VALUES (@jobId, @dataset, @countySlug, @taxYear, @vendor, @filePath, @fileSha256, @at)
      ON CONFLICT (job_id) DO UPDATE SET
        dataset = excluded.dataset,
        county_slug = excluded.county_slug,
        tax_year = excluded.tax_year,
        vendor = excluded.vendor,
        file_path = excluded.file_path,
        file_sha256 = excluded.file_sha256,
        status = 'running',
        attempts = ingest_runs.attempts + 1,
        rows_read = 0, rows_indexed = 0, rows_updated = 0, rows_quarantined = 0,
        error_code = NULL, error_message = NULL,
        started_at = excluded.started_at,
        finished_at = NULL
      RETURNING *`,
    {
      jobId: input.jobId,
      dataset: input.dataset,
      countySlug: input.countySlug ?? null,
      taxYear: input.taxYear ?? null,
      vendor: input.vendor ?? null,
      filePath: input.filePath,
      fileSha256: input.fileSha256 ?? null,
      at: isoTimestamp(input.at ?? new Date()),
    },
  );
  return mapRunRow(row!);
}

export interface FinishRun {
  status: 'succeeded' | 'failed';
  rowsRead?: number;
  rowsIndexed?: number;
  rowsUpdated?: number;
  rowsQuarantined?: number;
  /** A typed error code (e.g. a FileRejectionCode); never parsed from a message. */
  errorCode?: string | null;
  errorMessage?: string | null;
  /** Known once the file was read; omit to keep the value given at start. */
  fileSha256?: string;
  at?: Date | string;
}

export async function finishRun(sql: Sql, jobId: string, result: FinishRun): Promise<IngestRun> {
  const row = await sql.get<RunRow>(
    `
      UPDATE ingest_runs SET
        status = @status,
        rows_read = @rowsRead, rows_indexed = @rowsIndexed, rows_updated = @rowsUpdated, rows_quarantined = @rowsQuarantined,
        error_code = @errorCode, error_message = @errorMessage,
        file_sha256 = coalesce(CAST(@fileSha256 AS TEXT), file_sha256),
        finished_at = @at
      WHERE job_id = @jobId
      RETURNING *`,
    {
      jobId,
      status: result.status,
      rowsRead: result.rowsRead ?? 0,
      rowsIndexed: result.rowsIndexed ?? 0,
      rowsUpdated: result.rowsUpdated ?? 0,
      rowsQuarantined: result.rowsQuarantined ?? 0,
      errorCode: result.errorCode ?? null,
      errorMessage: result.errorMessage ?? null,
      fileSha256: result.fileSha256 ?? null,
      at: isoTimestamp(result.at ?? new Date()),
    },
  );
  if (!row) throw new UnknownRunError(jobId);
  return mapRunRow(row);
}

export async function getRun(sql: Sql, jobId: string): Promise<IngestRun | null> {
  const row = await sql.get<RunRow>('SELECT * FROM ingest_runs WHERE job_id = ?', [jobId]);
  return row ? mapRunRow(row) : null;
}

export interface RunFilters {
  limit?: number;
  dataset?: ControlDataset;
  countySlug?: string;
  status?: RunStatus;
}

/** Most recently started first. */
export async function listRuns(sql: Sql, filters: RunFilters = {}): Promise<IngestRun[]> {
  const where: string[] = [];
  const params: Record<string, string | number> = { limit: filters.limit ?? 50 };
  if (filters.dataset) {
    where.push('dataset = @dataset');
    params.dataset = filters.dataset;
  }
  if (filters.countySlug) {
    where.push('county_slug = @countySlug');
    params.countySlug = filters.countySlug;
  }
  if (filters.status) {
    where.push('status = @status');
    params.status = filters.status;
  }
  const clause = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  const rows = await sql.all<RunRow>(`SELECT * FROM ingest_runs${clause} ORDER BY started_at DESC, id DESC LIMIT @limit`, params);
  return rows.map(mapRunRow);
}

/**
 * The error code of the newest failed run of a county-year's files whose file has not loaded
 * since (no later succeeded run of the same path), among `codes`; the file of `exceptFile` is
 * the one loading now and is left out. A batch with one good and one bad file then leaves the
 * bad one's error on the source row, whichever finished first (a success used to clear it).
 */
export async function unresolvedFailure(
  sql: Sql,
  of: { dataset: ControlDataset; countySlug: string; taxYear: number; exceptFile: string; codes: readonly string[] },
): Promise<string | null> {
  if (of.codes.length === 0) return null;
  const codes = of.codes.map((_, i) => `@code${i}`).join(', ');
  const row = await sql.get<{ error_code: string }>(
    `SELECT f.error_code FROM ingest_runs f
      WHERE f.dataset = @dataset AND f.county_slug = @slug AND f.tax_year = @taxYear AND f.status = 'failed'
        AND f.file_path <> @exceptFile AND f.error_code IN (${codes})
        AND NOT EXISTS (
          SELECT 1 FROM ingest_runs s
          WHERE s.dataset = f.dataset AND s.county_slug = f.county_slug AND s.tax_year = f.tax_year
            AND s.file_path = f.file_path AND s.status = 'succeeded' AND s.finished_at >= f.finished_at)
      ORDER BY f.finished_at DESC LIMIT 1`,
    {
      dataset: of.dataset,
      slug: of.countySlug,
      taxYear: of.taxYear,
      exceptFile: of.exceptFile,
      ...Object.fromEntries(of.codes.map((c, i) => [`code${i}`, c])),
    },
  );
  return row?.error_code ?? null;
}
