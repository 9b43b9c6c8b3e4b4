import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { buildCertificateSnapshot } from '../../../../services/bulk/build-certificates.ts';
import { buildCertificateDelta } from '../../../../services/bulk/build-deltas.ts';
import type { BulkFile } from '../../../../services/bulk/entry.ts';
import { sqlText, withDuckDb } from '../../../../services/bulk/duckdb.ts';
import { floridaDayBounds } from '../../../../services/bulk/florida-day.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { floridaToday } from '../../../../services/domain/florida-today.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { loadAlachua, readNdjsonGz, readParquetRows, eventSeq, replay, searchAll } from '../../../helpers/bulk.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

describe('a snapshot plus the day’s delta equals the data after a changed county file', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let snapshot: BulkFile[];
  let delta: BulkFile[];
  let api: Record<string, unknown>[];
  const day = floridaToday(new Date());

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-delta-'));
    const storage = folderStorage(t.config.BULK_DIR);
    const first = alachuaCertificates(30, 3);
    await loadAlachua(t.runtime, dir, 'day-1.csv', first);
    snapshot = await buildCertificateSnapshot({ ...t.runtime, storage }, { county: 'alachua', taxYear: 2023 });
    // The county's next file: five more redeemed, one cancelled, four new certificates.
    const changed = [
      ...alachuaCertificates(30, 8).map((r, i) => (i === 20 ? { ...r, status: 'cancelled' as const } : r)),
      ...Array.from({ length: 4 }, (_, i) => sampleCertificate({ tax_year: 2023 }, 100 + i)),
    ];
    await loadAlachua(t.runtime, dir, 'day-2.csv', changed);
    delta = await buildCertificateDelta({ ...t.runtime, storage }, day);
    app = await buildApp(t.runtime);
    api = await searchAll(app, await apiKeyHeaders(t.runtime), 'alachua', 2023);
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the day’s delta in Parquet and NDJSON, through the newest event', () => {
    expect(delta.map((f) => f.name).sort()).toEqual([`certificates.${day}.delta.ndjson.gz`, `certificates.${day}.delta.parquet`]);
    expect(delta[0]).toMatchObject({ kind: 'delta', day, county: null, tax_year: null });
    expect(eventSeq(delta[0]!.through_event)).toBeGreaterThan(eventSeq(snapshot[0]!.through_event));
    expect(floridaDayBounds('2026-07-04')).toEqual({ start: '2026-07-04T04:00:00.000Z', end: '2026-07-05T04:00:00.000Z' });
    expect(floridaDayBounds('2026-11-01')).toEqual({ start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T05:00:00.000Z' });
  });

  it('NDJSON: the snapshot replayed with the delta equals /certificates/search', () => {
    const base = readNdjsonGz(join(t.config.BULK_DIR, snapshot.find((f) => f.format === 'ndjson')!.name));
    const lines = readNdjsonGz(join(t.config.BULK_DIR, delta.find((f) => f.format === 'ndjson')!.name));
    expect(lines.every((l) => l.op === 'upsert')).toBe(true);
    expect(base).not.toEqual(api);
    expect(replay(base, snapshot[0]!.through_event, lines)).toEqual(api);
  });

  it('Parquet read by an independent reader: the snapshot replayed with the delta equals /certificates/search', async () => {
    const base = await readParquetRows(join(t.config.BULK_DIR, snapshot.find((f) => f.format === 'parquet')!.name));
    const lines = await readParquetRows(join(t.config.BULK_DIR, delta.find((f) => f.format === 'parquet')!.name));
    expect(replay(base, snapshot[0]!.through_event, lines)).toEqual(api);
  });

  it('the worked example of docs/bulk-files.md: DuckDB loads the snapshot and applies the delta to the same rows', async () => {
    const snap = join(t.config.BULK_DIR, snapshot.find((f) => f.format === 'parquet')!.name);
    const lines = join(t.config.BULK_DIR, delta.find((f) => f.format === 'ndjson')!.name);
    const through = eventSeq(snapshot[0]!.through_event);
    const rows = await withDuckDb(async (exec) => {
      await exec(`CREATE TABLE certs AS SELECT * FROM ${sqlText(snap)}`);
      await exec(
        `CREATE TEMP TABLE changes AS SELECT * FROM read_json(${sqlText(lines)}, format = 'newline_delimited') WHERE CAST(substr(event_id, 5) AS BIGINT) > ${through}`,
      );
      await exec('DELETE FROM certs WHERE id IN (SELECT id FROM changes)');
      await exec(
        "INSERT INTO certs SELECT unnest(row) FROM changes WHERE op = 'upsert' QUALIFY row_number() OVER (PARTITION BY id ORDER BY CAST(substr(event_id, 5) AS BIGINT) DESC) = 1",
      );
      return exec('SELECT id, status, CAST(face_amount AS DOUBLE), CAST(redeemed_date AS VARCHAR) FROM certs ORDER BY id');
    });
    expect(rows).toEqual(api.map((r) => [r.id, r.status, r.face_amount, r.redeemed_date]));
  });
});
