import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { buildCertificateSnapshots } from '../../../../services/bulk/build-certificates.ts';
import type { BulkFile } from '../../../../services/bulk/entry.ts';
import { readEntries } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { CERTIFICATE_COLUMNS } from '../../../../services/domain/certificate-row.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { loadAlachua, readNdjsonGz, readParquetRows, searchAll } from '../../../helpers/bulk.ts';
import { alachuaCertificates, lastEventSeq } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

describe('certificates snapshot of a county and tax year', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let files: BulkFile[];
  let api: Record<string, unknown>[];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-snapshot-'));
    const records = [
      ...alachuaCertificates(23, 5),
      sampleCertificate({ holder_name: '=HYPERLINK("https://x.example")', tax_year: 2023 }, 40),
      sampleCertificate({ status: 'tax_deed_applied', tax_deed_application_date: '2026-06-02', tax_year: 2023 }, 41),
    ];
    await loadAlachua(t.runtime, dir, 'alachua-2023.csv', records);
    app = await buildApp(t.runtime);
    api = await searchAll(app, await apiKeyHeaders(t.runtime), 'alachua', 2023);
    // Pages of 7 rows: the walk crosses page boundaries several times.
    files = await buildCertificateSnapshots(
      { ...t.runtime, storage: folderStorage(t.config.BULK_DIR), pageRows: 7 },
      { county: 'alachua' },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (format: string) => files.find((f) => f.format === format)!;
  const path = (format: string) => join(t.config.BULK_DIR, file(format).name);

  it('writes three files in BULK_DIR, beside the database, each with its manifest entry', async () => {
    expect(t.config.BULK_DIR).toBe(join(t.config.DATABASE_PATH, '..', 'bulk'));
    expect(files.map((f) => f.name).sort()).toEqual([
      'certificates.alachua.2023.snapshot.csv.gz',
      'certificates.alachua.2023.snapshot.ndjson.gz',
      'certificates.alachua.2023.snapshot.parquet',
    ]);
    expect(api.length).toBe(25);
    const through = `evt_${await lastEventSeq(t.runtime.sql)}`;
    for (const f of files) {
      const bytes = readFileSync(join(t.config.BULK_DIR, f.name));
      expect(f).toMatchObject({ dataset: 'certificates', kind: 'snapshot', county: 'alachua', tax_year: 2023, day: null, rows: 25 });
      expect(f.bytes).toBe(bytes.length);
      expect(f.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(f.through_event).toBe(through);
    }
    expect(await readEntries(folderStorage(t.config.BULK_DIR))).toEqual([...files].sort((a, b) => a.name.localeCompare(b.name)));
  });

  it('NDJSON read with plain gunzip equals /certificates/search id for id and field for field', () => {
    expect(readNdjsonGz(path('ndjson'))).toEqual(api);
  });

  it('Parquet read by an independent reader equals /certificates/search id for id and field for field', async () => {
    expect(await readParquetRows(path('parquet'))).toEqual(api);
  });

  it('Parquet columns are typed: DATE, DECIMAL(12,2), BOOLEAN', async () => {
    const { parquetMetadataAsync, parquetSchema } = await import('hyparquet');
    const bytes = readFileSync(path('parquet'));
    const meta = await parquetMetadataAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const columns = Object.fromEntries(parquetSchema(meta).children.map((c) => [c.element.name, c.element]));
    const types = Object.fromEntries(Object.entries(columns).map(([name, e]) => [name, e.converted_type ?? e.type]));
    expect(types).toMatchObject({
      sale_date: 'DATE',
      redeemed_date: 'DATE',
      face_amount: 'DECIMAL',
      redemption_amount: 'DECIMAL',
      redeemed: 'BOOLEAN',
      tax_year: 'INT_32',
      interest_rate: 'DOUBLE',
    });
    expect([columns.face_amount?.precision, columns.face_amount?.scale]).toEqual([12, 2]);
    expect(meta.row_groups[0]?.columns[0]?.meta_data?.codec).toBe('ZSTD');
  });

  it('CSV has the API columns, formula-escaped as the API does', () => {
    const [header, ...rows] = parse(gunzipSync(readFileSync(path('csv')))) as string[][];
    expect(header).toEqual(CERTIFICATE_COLUMNS);
    expect(rows.map((r) => r[0])).toEqual(api.map((r) => r.id));
    const planted = rows.find((r) => r[CERTIFICATE_COLUMNS.indexOf('holder_name')]!.includes('HYPERLINK'))!;
    expect(planted[CERTIFICATE_COLUMNS.indexOf('holder_name')]).toBe(`'=HYPERLINK("https://x.example")`);
  });
});
