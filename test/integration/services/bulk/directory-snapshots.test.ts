import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { buildDirectorySnapshots, buildSaleSnapshots } from '../../../../services/bulk/build-directory.ts';
import type { BulkFile } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { upsertSource } from '../../../../services/control/ingest/sources.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { loadAlachua, readNdjsonGz, readParquetRows } from '../../../helpers/bulk.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

describe('certificate sales, counties and sources snapshots', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let auth: Record<string, string>;
  let files: BulkFile[];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-directory-'));
    await loadAlachua(t.runtime, dir, 'alachua.csv', alachuaCertificates(12, 2));
    await upsertSource(t.runtime.sql, t.runtime.registry, {
      countySlug: 'broward',
      taxYear: 2023,
      vendor: 'lienport',
      sourceKind: 'cert_sale_portal',
    });
    const deps = { ...t.runtime, storage: folderStorage(t.config.BULK_DIR) };
    files = [...(await buildSaleSnapshots(deps)), ...(await buildDirectorySnapshots(deps))];
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = async (url: string) => (await app.inject({ method: 'GET', url, headers: auth })).json().data as Record<string, unknown>[];
  const path = (dataset: string, format: string) =>
    join(t.config.BULK_DIR, files.find((f) => f.dataset === dataset && f.format === format)!.name);

  it('writes the sale of each county and tax year, and the counties and sources as single files', () => {
    expect(files.map((f) => f.name).sort()).toEqual([
      'certificate-sales.alachua.2023.snapshot.csv.gz',
      'certificate-sales.alachua.2023.snapshot.ndjson.gz',
      'certificate-sales.alachua.2023.snapshot.parquet',
      'counties.snapshot.csv.gz',
      'counties.snapshot.ndjson.gz',
      'counties.snapshot.parquet',
      'sources.snapshot.csv.gz',
      'sources.snapshot.ndjson.gz',
      'sources.snapshot.parquet',
    ]);
  });

  it('the sale rows equal /certificate-sales/search, by gunzip and by an independent Parquet reader', async () => {
    const rows = await api('/api/v1/certificate-sales/search?county=alachua&tax_year=2023');
    expect(rows.length).toBe(1);
    expect(readNdjsonGz(path('certificate-sales', 'ndjson'))).toEqual(rows);
    expect(await readParquetRows(path('certificate-sales', 'parquet'))).toEqual(rows);
  });

  it('the counties and sources equal /counties and /sources', async () => {
    expect(readNdjsonGz(path('counties', 'ndjson'))).toEqual(await api('/api/v1/counties'));
    expect((await readParquetRows(path('counties', 'parquet'))).map((c) => c.slug)).toEqual(
      (await api('/api/v1/counties')).map((c) => c.slug),
    );
    expect(readNdjsonGz(path('sources', 'ndjson'))).toEqual(await api('/api/v1/sources?limit=500'));
  });
});
