import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { buildHoldersSnapshot } from '../../../../services/api/routes/holders/bulk-snapshot.ts';
import { buildLandsSnapshots } from '../../../../services/api/routes/lands-available/bulk-snapshots.ts';
import type { BulkFile } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { loadAlachua, readNdjsonGz, readParquetRows } from '../../../helpers/bulk.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { fixturePath } from '../../../helpers/every-dataset.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));

/** A CSV's header and its data lines sorted (the file is in id order, the API in its sort's). */
function csvLines(text: string): { header: string; rows: string[] } {
  const [header, ...rows] = text.split('\n').filter((l) => l !== '');
  return { header: header!, rows: rows.sort() };
}

describe('holders and lands-available snapshots', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let auth: Record<string, string>;
  let holders: BulkFile[];
  let lands: BulkFile[];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-holders-lands-'));
    await loadAlachua(t.runtime, dir, 'alachua.csv', alachuaCertificates(6, 1));
    const outcomes = await enqueueFiles(
      t.runtime,
      [
        { dataset: 'holders', file: fixturePath('files/holders/good.csv'), vendor: 'manual', county: 'alachua', taxYear: 2024 },
        {
          dataset: 'lands-available',
          file: fixturePath('files/lands-available/good.csv'),
          vendor: 'county_local',
          county: 'alachua',
          taxYear: 2024,
        },
      ],
      { wait: true },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    // Pages of two rows: the walk crosses page boundaries on the three holders.
    const deps = { ...t.runtime, storage: folderStorage(t.config.BULK_DIR), pageRows: 2 };
    holders = await buildHoldersSnapshot(deps);
    lands = await buildLandsSnapshots(deps);
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: auth });
  const api = async (url: string) => byId((await get(url)).json().data as Record<string, unknown>[]);
  const path = (files: BulkFile[], format: string, taxYear: number | null = null) =>
    join(t.config.BULK_DIR, files.find((f) => f.format === format && f.tax_year === taxYear)!.name);
  const gunzipText = (file: string) => gunzipSync(readFileSync(file)).toString('utf8');

  it('writes one holders file set for the state and a lands-available set per county and tax year', () => {
    expect(holders.map((f) => f.name).sort()).toEqual([
      'holders.snapshot.csv.gz',
      'holders.snapshot.ndjson.gz',
      'holders.snapshot.parquet',
    ]);
    expect(holders.every((f) => f.rows === 3 && f.county === null && f.kind === 'snapshot')).toBe(true);
    expect(lands.map((f) => f.name).sort()).toEqual([
      'lands-available.alachua.2019.snapshot.csv.gz',
      'lands-available.alachua.2019.snapshot.ndjson.gz',
      'lands-available.alachua.2019.snapshot.parquet',
      'lands-available.alachua.2020.snapshot.csv.gz',
      'lands-available.alachua.2020.snapshot.ndjson.gz',
      'lands-available.alachua.2020.snapshot.parquet',
    ]);
  });

  it('holder rows equal /holders/search id for id and field for field, by gunzip and by an independent Parquet reader', async () => {
    const rows = await api('/api/v1/holders/search?limit=100');
    expect(rows.length).toBe(3);
    expect(readNdjsonGz(path(holders, 'ndjson'))).toEqual(rows);
    expect(await readParquetRows(path(holders, 'parquet'))).toEqual(rows);
  });

  it('the holders CSV is the API’s CSV: its columns, its escaping', async () => {
    const answer = await get('/api/v1/holders/search?limit=100&format=csv');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(csvLines(gunzipText(path(holders, 'csv')))).toEqual(csvLines(answer.body));
  });

  it('lands-available rows of each county and tax year equal /lands-available/search, in all three formats', async () => {
    for (const taxYear of [2019, 2020]) {
      const url = `/api/v1/lands-available/search?county=alachua&tax_year=${taxYear}&limit=100`;
      const rows = await api(url);
      expect(rows.length, String(taxYear)).toBe(1);
      expect(readNdjsonGz(path(lands, 'ndjson', taxYear))).toEqual(rows);
      expect(await readParquetRows(path(lands, 'parquet', taxYear))).toEqual(rows);
      expect(csvLines(gunzipText(path(lands, 'csv', taxYear)))).toEqual(csvLines((await get(`${url}&format=csv`)).body));
    }
  });

  it('the manifest filters by the new datasets; a dataset that does not exist stays a 400 naming it', async () => {
    const names = async (query: string) => ((await get(`/api/v1/bulk/files?${query}`)).json().data as BulkFile[]).map((f) => f.name);
    expect(await names('dataset=holders')).toEqual(['holders.snapshot.csv.gz', 'holders.snapshot.ndjson.gz', 'holders.snapshot.parquet']);
    expect(await names('dataset=lands-available&tax_year=2020&format=parquet')).toEqual(['lands-available.alachua.2020.snapshot.parquet']);
    expect(await names('dataset=certificates')).toEqual([]);
    const bad = await get('/api/v1/bulk/files?dataset=lands');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues.map((i: { parameter: string }) => i.parameter)).toEqual(['dataset']);
    const download = await get('/api/v1/bulk/files/lands-available.alachua.2019.snapshot.ndjson.gz');
    expect(download.statusCode).toBe(200);
    expect(download.headers.etag).toBe(`"${lands.find((f) => f.name === 'lands-available.alachua.2019.snapshot.ndjson.gz')!.sha256}"`);
  });
});
