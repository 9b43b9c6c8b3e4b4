// @module-tag postgres
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { SOURCE_COLUMNS } from '../../../../../../services/api/routes/sources/row.ts';
import { recordCheck, upsertSource } from '../../../../../../services/control/ingest/sources.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';

interface Source {
  id: string;
  countySlug: string;
  taxYear: number;
  vendor: string;
  sourceKind: string;
  active: boolean;
  requiresLogin: boolean;
  lastError: string | null;
}

describe('GET /api/v1/sources and /sources/{county}', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  // Every /api/v1 request needs a key (an Enterprise client's: every feature, 10,000 RPM).
  let auth: Record<string, string> = {};
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });
  const list = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Source[]; pagination: Record<string, unknown>; meta: Record<string, unknown> };
  };
  const keys = async (url: string) => (await list(url)).data.map((s) => `${s.countySlug}-${s.taxYear}`);

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    // Registered the way `ingest --manifest` and the worker's bookkeeping register them.
    const add = (countySlug: string, taxYear: number, vendor: string, sourceKind: string, extra = {}) =>
      upsertSource(t.runtime.sql, t.runtime.registry, { countySlug, taxYear, vendor, sourceKind, ...extra });
    await add('alachua', 2024, 'lienport', 'cert_sale_portal', { saleUrl: 'https://alachua.lienport.com/certificate-sale' });
    await add('alachua', 2022, 'county_local', 'bulk_download', { active: false, notes: 'replaced by the portal' });
    await add('alachua', 2023, 'lienport', 'cert_sale_portal');
    await add('orange', 2023, 'taxgavel', 'bulk_download', { requiresLogin: true, downloadUrl: 'https://orange.example/export.dat' });
    await add('miami-dade', 2024, 'lienport', 'cert_sale_portal');
    await add('duval', 2024, 'certbid', 'cert_sale_portal');
    await recordCheck(t.runtime.sql, 'miami-dade', 2024, { ok: true, at: '2025-06-02T10:00:00.000Z' });
    await recordCheck(t.runtime.sql, 'duval', 2024, { ok: false, error: 'truncated_file: no trailer', at: '2025-06-02T11:00:00.000Z' });
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t.teardown();
  });

  it('lists one row per county and tax year, by county name then newest year, in the list envelope (limit 100)', async () => {
    const body = await list('/api/v1/sources');
    expect(body.data.map((s) => `${s.countySlug}-${s.taxYear}`)).toEqual([
      'alachua-2024',
      'alachua-2023',
      'alachua-2022',
      'duval-2024',
      'miami-dade-2024',
      'orange-2023',
    ]);
    expect(body.pagination).toEqual({ limit: 100, offset: 0, total: 6, has_more: false });
    expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
  });

  it('rows have exactly the camelCase fields of spec 2.7', async () => {
    const { data } = await list('/api/v1/sources?county=duval');
    expect(Object.keys(data[0]!)).toEqual(SOURCE_COLUMNS);
    expect(data[0]).toEqual({
      id: expect.any(String),
      countyId: expect.any(String),
      countySlug: 'duval',
      taxYear: 2024,
      vendor: 'certbid',
      saleUrl: null,
      downloadUrl: null,
      sourceKind: 'cert_sale_portal',
      requiresLogin: false,
      lastCheckedAt: '2025-06-02T11:00:00.000Z',
      lastSuccessAt: null,
      lastError: 'truncated_file: no trailer',
      active: true,
      notes: '',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('filters by county, vendor (case-insensitive contains), source_kind and active', async () => {
    expect(await keys('/api/v1/sources?county=alachua')).toEqual(['alachua-2024', 'alachua-2023', 'alachua-2022']);
    expect(await keys('/api/v1/sources?vendor=LIEN')).toEqual(['alachua-2024', 'alachua-2023', 'miami-dade-2024']);
    expect(await keys('/api/v1/sources?vendor=_loc')).toEqual(['alachua-2022']);
    expect(await keys('/api/v1/sources?vendor=%25')).toEqual([]);
    expect(await keys('/api/v1/sources?source_kind=bulk_download')).toEqual(['alachua-2022', 'orange-2023']);
    expect(await keys('/api/v1/sources?active=false')).toEqual(['alachua-2022']);
    expect((await keys('/api/v1/sources?active=true')).length).toBe(5);
    expect(await keys('/api/v1/sources?county=alachua&active=true&vendor=lienport&source_kind=cert_sale_portal')).toEqual([
      'alachua-2024',
      'alachua-2023',
    ]);
    expect(await keys('/api/v1/sources?county=leon')).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const body = await list('/api/v1/sources?limit=2&offset=2');
    expect(body.data.map((s) => `${s.countySlug}-${s.taxYear}`)).toEqual(['alachua-2022', 'duval-2024']);
    expect(body.pagination).toEqual({ limit: 2, offset: 2, total: 6, has_more: true });
    const last = await list('/api/v1/sources?limit=2&offset=4');
    expect(last.pagination).toEqual({ limit: 2, offset: 4, total: 6, has_more: false });
    expect((await list('/api/v1/sources?offset=10')).data).toEqual([]);
  });

  it('/sources/{county} lists the county newest tax year first, paged like any list', async () => {
    const body = await list('/api/v1/sources/alachua');
    expect(body.data.map((s) => s.taxYear)).toEqual([2024, 2023, 2022]);
    expect(body.pagination).toEqual({ limit: 100, offset: 0, total: 3, has_more: false });
    const page = await list('/api/v1/sources/alachua?limit=1&offset=1');
    expect(page.data.map((s) => s.taxYear)).toEqual([2023]);
    expect(page.pagination).toEqual({ limit: 1, offset: 1, total: 3, has_more: true });
    expect((await list('/api/v1/sources/Miami-Dade')).data.map((s) => s.countySlug)).toEqual(['miami-dade']);
  });

  it('/sources/{county} is 404 not_found for a county without sources and for an unknown slug', async () => {
    for (const url of ['/api/v1/sources/leon', '/api/v1/sources/atlantis']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().error).toMatchObject({ code: 'not_found', request_id: expect.stringMatching(/^req_/) });
    }
  });

  it.each([
    ['/api/v1/sources?limit=501', 'limit'],
    ['/api/v1/sources?limit=0', 'limit'],
    ['/api/v1/sources?offset=-5', 'offset'],
    ['/api/v1/sources?active=yes', 'active'],
    ['/api/v1/sources?county=Alachua%20County!', 'county'],
    ['/api/v1/sources?county=alachua&county=duval', 'county'],
    [`/api/v1/sources?vendor=${'v'.repeat(81)}`, 'vendor'],
    ['/api/v1/sources?tax_year=2024', 'tax_year'],
    ['/api/v1/sources/alachua?active=true', 'active'],
    ['/api/v1/sources/alachua?limit=501', 'limit'],
  ])('400 bad_request for %s, naming %s', async (url, parameter) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('bad_request');
    expect(error.details.issues.map((i: { parameter: string }) => i.parameter)).toContain(parameter);
  });

  it('answers CSV for both lists: header line, booleans as true/false, null as an empty cell', async () => {
    const res = await get('/api/v1/sources?county=orange&format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, row, ...rest] = res.body.trimEnd().split('\n');
    expect(header).toBe(SOURCE_COLUMNS.join(','));
    expect(rest).toEqual([]);
    const cells = Object.fromEntries(SOURCE_COLUMNS.map((c, i) => [c, row!.split(',')[i]]));
    expect(cells).toMatchObject({
      countySlug: 'orange',
      taxYear: '2023',
      requiresLogin: 'true',
      active: 'true',
      saleUrl: '',
      lastError: '',
    });
    const county = await get('/api/v1/sources/alachua', { accept: 'text/csv' });
    expect(county.headers['content-type']).toMatch(/^text\/csv/);
    expect(county.body.trimEnd().split('\n')).toHaveLength(4);
  });
});
