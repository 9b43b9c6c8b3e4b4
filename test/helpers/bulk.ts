import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { enqueueFiles } from '../../services/process/ingest-runner.ts';
import type { Runtime } from '../../services/process/runtime.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import { alachuaJob, writeAlachuaFile } from './event-files.ts';

/** Loads Alachua certificates through the real ingest path (queue, worker, events). */
export async function loadAlachua(runtime: Runtime, dir: string, name: string, records: CertificateRecord[], taxYear = 2023) {
  const file = await writeAlachuaFile(dir, name, records, taxYear);
  const [outcome] = await enqueueFiles(runtime, [alachuaJob(file, taxYear)], { wait: true });
  if (outcome?.status !== 'succeeded') throw new Error(`ingest of ${name} ended ${outcome?.status}`);
}

/** Every row of /certificates/search for the county and tax year, in id order, paging 500 at a time. */
export async function searchAll(app: FastifyInstance, headers: Record<string, string>, county: string, taxYear: number) {
  const rows: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += 500) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/certificates/search?county=${county}&tax_year=${taxYear}&limit=500&offset=${offset}`,
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
    const page = res.json().data as Record<string, unknown>[];
    rows.push(...page);
    if (page.length < 500) break;
  }
  return rows.sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

/** A gzipped NDJSON file's rows, read with nothing but gunzip and JSON.parse. */
export function readNdjsonGz(path: string): Record<string, unknown>[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * A Parquet file's rows read by hyparquet (not the library that wrote it), with its values
 * as the API writes them: dates back to YYYY-MM-DD, decimals to numbers of cents.
 */
export async function readParquetRows(path: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const rows = (await parquetReadObjects({ file, compressors })) as Record<string, unknown>[];
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, apiValue(v)])));
}

function apiValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Math.round(v * 1e6) / 1e6;
  // A delta's row is a STRUCT: its fields read the same way.
  if (v !== null && typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, apiValue(inner)]));
  return v;
}

export const bulkPath = (dir: string, name: string) => join(dir, name);

/** A change-feed event id as its sequence number (0 for none). */
export const eventSeq = (eventId: string | null) => (eventId === null ? 0 : Number(eventId.slice(4)));

/** Applies a delta's lines after the snapshot's event to its rows, as a customer's loader would. */
export function replay(snapshot: Record<string, unknown>[], through: string | null, delta: Record<string, unknown>[]) {
  const rows = new Map(snapshot.map((r) => [r.id as string, r]));
  for (const line of delta) {
    if (eventSeq(line.event_id as string) <= eventSeq(through)) continue;
    if (line.op === 'delete') rows.delete(line.id as string);
    else rows.set(line.id as string, line.row as Record<string, unknown>);
  }
  return [...rows.values()].sort((a, b) => String(a.id).localeCompare(String(b.id)));
}
