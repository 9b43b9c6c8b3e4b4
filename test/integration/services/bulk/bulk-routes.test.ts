import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { buildCertificateSnapshots } from '../../../../services/bulk/build-certificates.ts';
import type { BulkFile } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { loadAlachua } from '../../../helpers/bulk.ts';
import { connectMcp, errorBody } from '../../../helpers/mcp.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

describe('GET /bulk/files and /bulk/files/{name}', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let auth: Record<string, string>;
  let files: BulkFile[];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-routes-'));
    await loadAlachua(t.runtime, dir, 'alachua-2023.csv', alachuaCertificates(400, 40));
    files = await buildCertificateSnapshots({ ...t.runtime, storage: folderStorage(t.config.BULK_DIR) });
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}, key = auth) =>
    app.inject({ method: 'GET', url, headers: { ...key, ...headers } });

  it('lists every file with its manifest entry, filtered by dataset, county, tax year, format, kind and since', async () => {
    const all = await get('/api/v1/bulk/files');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toEqual([...files].sort((a, b) => a.name.localeCompare(b.name)));
    const parquet = await get(
      '/api/v1/bulk/files?dataset=certificates&county=alachua&tax_year=2023&format=parquet&kind=snapshot&since=2020-01-01',
    );
    expect(parquet.json().data.map((f: BulkFile) => f.name)).toEqual(['certificates.alachua.2023.snapshot.parquet']);
    expect((await get('/api/v1/bulk/files?kind=delta')).json().data).toEqual([]);
    expect((await get('/api/v1/bulk/files?county=leon')).json().data).toEqual([]);
    expect((await get('/api/v1/bulk/files?since=2999-01-01T00:00:00Z')).json().data).toEqual([]);
  });

  it('answers 400 naming a dataset, county, format or kind that does not exist', async () => {
    for (const [query, parameter] of [
      ['dataset=parcels', 'dataset'],
      ['county=atlantis', 'county'],
      ['format=xlsx', 'format'],
      ['kind=weekly', 'kind'],
      ['since=yesterday', 'since'],
      ['tax_year=20x4', 'tax_year'],
      ['colour=red', 'colour'],
    ]) {
      const res = await get(`/api/v1/bulk/files?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(
        res.json().error.details.issues.map((i: { parameter: string }) => i.parameter),
        query,
      ).toContain(parameter);
    }
  });

  it('downloads a file whole with Content-Length and its sha256 as ETag; If-None-Match answers 304', async () => {
    const entry = files.find((f) => f.format === 'parquet')!;
    const res = await get(`/api/v1/bulk/files/${entry.name}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(entry.bytes));
    expect(res.headers.etag).toBe(`"${entry.sha256}"`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(entry.sha256);
    const again = await get(`/api/v1/bulk/files/${entry.name}`, { 'if-none-match': `"${entry.sha256}"` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('resumes an interrupted download with Range: the parts together match the sha256', async () => {
    const entry = files.find((f) => f.format === 'ndjson')!;
    const half = Math.floor(entry.bytes / 2);
    const first = await get(`/api/v1/bulk/files/${entry.name}`, { range: `bytes=0-${half - 1}` });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-${half - 1}/${entry.bytes}`);
    const rest = await get(`/api/v1/bulk/files/${entry.name}`, { range: `bytes=${half}-`, 'if-range': `"${entry.sha256}"` });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-length']).toBe(String(entry.bytes - half));
    const whole = Buffer.concat([first.rawPayload, rest.rawPayload]);
    expect(createHash('sha256').update(whole).digest('hex')).toBe(entry.sha256);
    expect(whole.equals(readFileSync(join(t.config.BULK_DIR, entry.name)))).toBe(true);
    const tail = await get(`/api/v1/bulk/files/${entry.name}`, { range: 'bytes=-10' });
    expect(tail.rawPayload.length).toBe(10);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const entry = files.find((f) => f.format === 'csv')!;
    const res = await get(`/api/v1/bulk/files/${entry.name}`, { range: `bytes=${entry.bytes}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${entry.bytes}`);
    expect(res.json().error.code).toBe('range_not_satisfiable');
  });

  it('answers 404 for an unknown name and for any name with .., a slash or a percent-encoded separator', async () => {
    for (const name of [
      'certificates.leon.2019.snapshot.parquet',
      '..',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2ftaxcert.db',
      'certificates.alachua.2023.snapshot.parquet.manifest.json',
      '..%5Ctaxcert.db',
    ]) {
      const res = await get(`/api/v1/bulk/files/${name}`);
      expect(res.statusCode, name).toBe(404);
      expect(res.json().error.code, name).toBe('not_found');
    }
    expect((await get('/api/v1/bulk/files/../../taxcert.db')).statusCode).toBe(404);
  });

  it('is refused on a plan without CSV with the answer format=csv gets, and costs one credit a request', async () => {
    const developer = await apiKeyHeaders(t.runtime, 'developer');
    const csv = await get('/api/v1/certificates/search?format=csv', {}, developer);
    for (const url of ['/api/v1/bulk/files', `/api/v1/bulk/files/${files[0]!.name}`]) {
      const res = await get(url, {}, developer);
      expect(res.statusCode, url).toBe(403);
      expect({ ...res.json().error, request_id: null }).toEqual({ ...csv.json().error, request_id: null });
    }
    const pro = await apiKeyHeaders(t.runtime, 'pro');
    const before = (await get('/api/v1/account/usage', {}, pro)).json().data;
    await get('/api/v1/bulk/files', {}, pro);
    await get(`/api/v1/bulk/files/${files[0]!.name}`, { range: 'bytes=0-9' }, pro);
    const after = (await get('/api/v1/account/usage', {}, pro)).json().data;
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
  });

  it('list_bulk_files answers what GET /bulk/files answers, and is refused on a plan without CSV', async () => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const developer = await apiKeyHeaders(t.runtime, 'developer');
    const allowed = await connectMcp(base, auth);
    const refused = await connectMcp(base, developer);
    try {
      const listed = await allowed.callTool({ name: 'list_bulk_files', arguments: { dataset: 'certificates', county: 'alachua' } });
      const rest = (await get('/api/v1/bulk/files?dataset=certificates&county=alachua')).json();
      expect((listed.structuredContent as { data: unknown }).data).toEqual(rest.data);
      const no = await refused.callTool({ name: 'list_bulk_files', arguments: {} });
      expect(no.isError).toBe(true);
      expect(errorBody(no).error.code).toBe('csv_disabled');
    } finally {
      await allowed.close();
      await refused.close();
    }
  });
});
