import type { Sql } from '../db/sql.ts';

/** Rows an ingest refused: the raw text, where it was, and why. */

export interface QuarantineInput {
  /** The ingest job id (ingest_runs.job_id). */
  runId: string;
  filePath: string;
  fileSha256: string;
  /** 1-based line (or record number) in the file. */
  line: number;
  raw: string;
  reasons: string[];
}

export interface QuarantinedRow extends QuarantineInput {
  id: string;
  createdAt: string;
}

interface Row {
  id: number;
  run_id: string;
  file_path: string;
  file_sha256: string;
  line: number;
  raw: string;
  reasons: string;
  created_at: string;
}

export function mapQuarantineRow(row: Row): QuarantinedRow {
  return {
    id: String(row.id),
    runId: row.run_id,
    filePath: row.file_path,
    fileSha256: row.file_sha256,
    line: row.line,
    raw: row.raw,
    reasons: JSON.parse(row.reasons) as string[],
    createdAt: row.created_at,
  };
}

/**
 * Stores refused rows in one transaction. (run_id, file_sha256, line) is unique: a retried
 * job overwrites its own earlier rows in place rather than adding copies, and another run of
 * the same file keeps rows of its own (migration 007).
 */
export async function addQuarantined(sql: Sql, rows: readonly QuarantineInput[]): Promise<number> {
  if (rows.length === 0) return 0;
  const insert = `
    INSERT INTO quarantine (run_id, file_path, file_sha256, line, raw, reasons)
    VALUES (@runId, @filePath, @fileSha256, @line, @raw, @reasons)
    ON CONFLICT (run_id, file_sha256, line) DO UPDATE SET
      file_path = excluded.file_path,
      raw = excluded.raw,
      reasons = excluded.reasons,
      created_at = now_iso()`;
  // One statement text looped inside one transaction: a batch commits once (and the text is prepared once).
  return sql.transaction(async (tx) => {
    for (const r of rows)
      await tx.run(insert, {
        runId: r.runId,
        filePath: r.filePath,
        fileSha256: r.fileSha256,
        line: r.line,
        raw: r.raw,
        reasons: JSON.stringify(r.reasons),
      });
    return rows.length;
  });
}

export interface QuarantineFilters {
  /** A file path or a file's sha256. */
  file?: string;
  /** Also match rows of files with this content, whatever path they were loaded from. */
  fileSha256?: string;
  runId?: string;
}

function whereOf(filters: QuarantineFilters): { clause: string; params: Record<string, string> } {
  const where: string[] = [];
  const params: Record<string, string> = {};
  if (filters.file !== undefined) {
    where.push(`(file_path = @file OR file_sha256 = @file${filters.fileSha256 !== undefined ? ' OR file_sha256 = @fileSha256' : ''})`);
    params.file = filters.file;
    if (filters.fileSha256 !== undefined) params.fileSha256 = filters.fileSha256;
  }
  if (filters.runId !== undefined) {
    where.push('run_id = @runId');
    params.runId = filters.runId;
  }
  return { clause: where.length ? ` WHERE ${where.join(' AND ')}` : '', params };
}

/** A statement without parameters is given no values (PostgreSQL refuses extra ones). */
function valuesOf(params: Record<string, string>): Record<string, string> | undefined {
  return Object.keys(params).length > 0 ? params : undefined;
}

/** In file order (path, then line). */
export async function listQuarantine(
  sql: Sql,
  filters: QuarantineFilters & { limit?: number; offset?: number } = {},
): Promise<QuarantinedRow[]> {
  checkPage(filters.limit, filters.offset);
  const { clause, params } = whereOf(filters);
  // file_path COLLATE "C" on PostgreSQL: byte order, as SQLite sorts text.
  const path = sql.dialect === 'sqlite' ? 'file_path' : 'file_path COLLATE "C"';
  const rows = await sql.all<Row>(`SELECT * FROM quarantine${clause} ORDER BY ${path}, line, id LIMIT @limit OFFSET @offset`, {
    ...params,
    limit: filters.limit ?? 100,
    offset: filters.offset ?? 0,
  });
  return rows.map(mapQuarantineRow);
}

export async function countQuarantine(sql: Sql, filters: QuarantineFilters = {}): Promise<number> {
  const { clause, params } = whereOf(filters);
  return (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM quarantine${clause}`, valuesOf(params)))!.n;
}

/** Deletes the rows the filters match (all of them with no filter): only ever on an operator's request. */
export async function clearQuarantine(sql: Sql, filters: QuarantineFilters = {}): Promise<number> {
  const { clause, params } = whereOf(filters);
  return (await sql.run(`DELETE FROM quarantine${clause}`, valuesOf(params))).changes;
}

/** SQLite reads a negative LIMIT as "no limit"; refuse instead of returning everything. */
function checkPage(limit: number | undefined, offset: number | undefined): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0))
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  if (offset !== undefined && (!Number.isSafeInteger(offset) || offset < 0))
    throw new RangeError(`offset must be a non-negative integer, got ${offset}`);
}
