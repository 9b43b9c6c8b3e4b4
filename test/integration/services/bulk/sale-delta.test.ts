import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { buildSaleDelta } from '../../../../services/bulk/build-deltas.ts';
import { buildSaleSnapshots } from '../../../../services/bulk/build-directory.ts';
import type { BulkFile } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { eventTypesOf } from '../../../../services/domain/event-types.ts';
import { floridaToday } from '../../../../services/domain/florida-today.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { loadAlachua, readNdjsonGz, readParquetRows, eventSeq, replay } from '../../../helpers/bulk.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

describe('the certificate-sales delta of a Florida day', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let snapshot: BulkFile[];
  let delta: BulkFile[];
  let api: Record<string, unknown>[];
  let auth: Record<string, string>;
  const day = floridaToday(new Date());
  const file = (files: BulkFile[], format: string) => join(t.config.BULK_DIR, files.find((f) => f.format === format)!.name);

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-sale-delta-'));
    const deps = { ...t.runtime, storage: folderStorage(t.config.BULK_DIR) };
    // Two sales: Alachua 2023 changes after the snapshot, Alachua 2022 does not. A first load of a
    // county and tax year is one certificates.loaded event, no certificate event: only the
    // second 2023 file makes certificate events.
    await loadAlachua(t.runtime, dir, '2022.csv', alachuaCertificates(5, 1, 2022), 2022);
    await loadAlachua(t.runtime, dir, 'day-1.csv', alachuaCertificates(30, 3));
    snapshot = await buildSaleSnapshots(deps);
    // The county's next file: five more redeemed, one cancelled, four new certificates.
    const changed = [
      ...alachuaCertificates(30, 8).map((r, i) => (i === 20 ? { ...r, status: 'cancelled' as const } : r)),
      ...Array.from({ length: 4 }, (_, i) => sampleCertificate({ tax_year: 2023 }, 100 + i)),
    ];
    await loadAlachua(t.runtime, dir, 'day-2.csv', changed);
    delta = await buildSaleDelta(deps, day);
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
    const res = await app.inject({ method: 'GET', url: '/api/v1/certificate-sales/search?county=alachua&limit=100', headers: auth });
    api = (res.json().data as Record<string, unknown>[]).sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the day’s sales delta in Parquet and NDJSON, through the newest event', () => {
    expect(delta.map((f) => f.name).sort()).toEqual([`certificate-sales.${day}.delta.ndjson.gz`, `certificate-sales.${day}.delta.parquet`]);
    expect(delta[0]).toMatchObject({ dataset: 'certificate-sales', kind: 'delta', day, county: null, tax_year: null, rows: 1 });
    expect(eventSeq(delta[0]!.through_event)).toBeGreaterThan(eventSeq(snapshot[0]!.through_event));
  });

  it('one upsert per sale the day’s certificate events touched (not the untouched 2022 sale), with the newest certificate event of that sale and the row as the API renders it', async () => {
    const types = eventTypesOf('certificate');
    const newest = await t.runtime.sql.all<{ id: number; type: string; created_at: string; data: string }>(
      `SELECT id, type, created_at, data FROM events WHERE client_id IS NULL AND type IN (${types.map(() => '?').join(', ')}) ORDER BY id`,
      [...types],
    );
    const lastOf = (taxYear: number) => newest.filter((e) => JSON.parse(e.data).object.tax_year === taxYear).at(-1)!;
    const lines = readNdjsonGz(file(delta, 'ndjson'));
    const sale = (taxYear: number) => api.find((s) => s.tax_year === taxYear)!;
    expect(lines).toEqual(
      [2023].map((taxYear) => ({
        op: 'upsert',
        id: sale(taxYear).id,
        event_id: `evt_${lastOf(taxYear).id}`,
        event_type: lastOf(taxYear).type,
        changed_at: lastOf(taxYear).created_at,
        row: sale(taxYear),
      })),
    );
  });

  it('the sale snapshot replayed with the day’s sales delta equals /certificate-sales/search (NDJSON and Parquet)', async () => {
    const base = readNdjsonGz(file(snapshot, 'ndjson')).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(base).not.toEqual(api);
    expect(replay(base, snapshot[0]!.through_event, readNdjsonGz(file(delta, 'ndjson')))).toEqual(api);
    const parquetBase = await readParquetRows(file(snapshot, 'parquet'));
    expect(replay(parquetBase, snapshot[0]!.through_event, await readParquetRows(file(delta, 'parquet')))).toEqual(api);
  });

  it('the manifest lists it under kind=delta&dataset=certificate-sales', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/bulk/files?kind=delta&dataset=certificate-sales', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([...delta].sort((a, b) => a.name.localeCompare(b.name)));
  });
});
