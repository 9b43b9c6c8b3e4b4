import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { HOLDER_COLUMNS } from '../../../../../../services/api/routes/holders/row.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { holderId } from '../../../../../../services/domain/ids.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';

interface Holder {
  id: string;
  name: string;
  normalized_name: string;
  certificate_count: number;
  outstanding_face_amount: number;
  counties: string[];
}

/** A holder file in the format the worker reads; two pairs tie on count and on face to exercise the tie-breaker. */
const HOLDER_FILE = [
  'holder_name,certificate_count,outstanding_face_amount,counties,first_seen_tax_year,last_seen_tax_year',
  '"Gulf Coast Lien Fund II, LLC",42,"$61,234.56",miami-dade;alachua,2019,2024',
  'Sunshine Tax Certs Inc.,3,1500.1,orange,2023,2023',
  '"O\'Brien Capital ""Tax"" Partners",0,0,alachua;duval,2018,2021',
  'Smith & Sons Capital,12,"$9,000.00",duval,2020,2024',
  '"SMITH, JONES AND PARTNERS",12,"$20,000.00",leon;alachua,2021,2024',
  'Bayview Partners LP,7,"$61,234.56",miami-dade,2022,2024',
  'Acme Tax Fund LLC,5,"$2,500.00",orange;leon,2020,2022',
  '',
].join('\n');

describe('GET /api/v1/holders/search and /holders/{id}', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  // Every /api/v1 request needs a key (an Enterprise client's: every feature, 10,000 RPM).
  let auth: Record<string, string> = {};
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });
  const search = async (query: string) => {
    const res = await get(`/api/v1/holders/search?limit=500${query ? `&${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Holder[]; pagination: { total: number }; meta: Record<string, unknown> };
  };
  const names = async (query: string) => (await search(query)).data.map((h) => h.name);

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'holders-api-'));
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('while the holder dataset is empty', () => {
    it('search answers an empty list with meta.coverage.status not_yet_ingested', async () => {
      const body = await search('');
      expect(body).toEqual({
        data: [],
        pagination: { limit: 500, offset: 0, total: 0, has_more: false },
        meta: { request_id: expect.stringMatching(/^req_/), dataset_status: 'live', coverage: { status: 'not_yet_ingested' } },
      });
      expect((await search('query=gulf&county=alachua&sort=face_desc')).meta.coverage).toEqual({ status: 'not_yet_ingested' });
    });

    it('/holders/{id} is 404 not_found, saying in details that holders are not yet ingested', async () => {
      const res = await get(`/api/v1/holders/${holderId('Gulf Coast Lien Fund II, LLC')}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'not_found', details: { coverage: { status: 'not_yet_ingested' } } });
    });
  });

  describe('after a holder file is ingested', () => {
    let all: Holder[];
    beforeAll(async () => {
      const file = join(dir, 'holders.csv');
      writeFileSync(file, HOLDER_FILE);
      const [outcome] = await enqueueFiles(t.runtime, [{ dataset: 'holders', file, vendor: 'manual', county: 'alachua', taxYear: 2024 }], {
        wait: true,
      });
      expect(outcome?.status, outcome?.error).toBe('succeeded');
      all = (await search('')).data;
    });

    it('lists every holder by name (default), exactly the fields of spec 2.4, and no coverage key', async () => {
      const body = await search('');
      expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
      expect(all.map((h) => h.normalized_name)).toEqual([
        'acme tax fund llc',
        'bayview partners lp',
        'gulf coast lien fund ii llc',
        'o brien capital tax partners',
        'smith and sons capital',
        'smith jones and partners',
        'sunshine tax certs inc',
      ]);
      for (const h of all) expect(Object.keys(h)).toEqual(HOLDER_COLUMNS);
      expect(all.find((h) => h.name.startsWith('Gulf'))).toEqual({
        id: holderId('Gulf Coast Lien Fund II, LLC'),
        name: 'Gulf Coast Lien Fund II, LLC',
        normalized_name: 'gulf coast lien fund ii llc',
        certificate_count: 42,
        outstanding_face_amount: 61234.56,
        counties: ['alachua', 'miami-dade'],
        first_seen_tax_year: 2019,
        last_seen_tax_year: 2024,
      });
    });

    it('a search that matches nothing on a non-empty dataset has no coverage key', async () => {
      const body = await search('query=nobody-by-this-name');
      expect(body.pagination.total).toBe(0);
      expect(body.meta).not.toHaveProperty('coverage');
    });

    it('query is a case-insensitive contains match that ignores punctuation, spaces and & versus and (as the holder filter of certificates)', async () => {
      expect(await names('query=gulf%20coast')).toEqual(['Gulf Coast Lien Fund II, LLC']);
      expect(await names('query=GULF-COAST,%20%20lien')).toEqual(['Gulf Coast Lien Fund II, LLC']);
      expect(await names('query=smith%20%26%20sons')).toEqual(['Smith & Sons Capital']);
      expect(await names('query=Smith%20and%20Sons')).toEqual(['Smith & Sons Capital']);
      expect(await names('query=smith,%20jones%20%26%20partners')).toEqual(['SMITH, JONES AND PARTNERS']);
      expect(await names('query=smithjones')).toEqual(['SMITH, JONES AND PARTNERS']);
      expect(await names("query=o'brien")).toEqual(['O\'Brien Capital "Tax" Partners']);
      expect(await names('query=partners')).toEqual([
        'Bayview Partners LP',
        'O\'Brien Capital "Tax" Partners',
        'SMITH, JONES AND PARTNERS',
      ]);
      expect(await names('query=LLC')).toEqual(['Acme Tax Fund LLC', 'Gulf Coast Lien Fund II, LLC']);
      // Wildcard characters are punctuation like any other, never a pattern.
      expect(await names('query=*gulf?')).toEqual(['Gulf Coast Lien Fund II, LLC']);
    });

    it('county keeps holders active in any of the given counties; min_certificates is inclusive', async () => {
      expect(await names('county=alachua')).toEqual([
        'Gulf Coast Lien Fund II, LLC',
        'O\'Brien Capital "Tax" Partners',
        'SMITH, JONES AND PARTNERS',
      ]);
      expect(await names('county=orange,leon')).toEqual(['Acme Tax Fund LLC', 'SMITH, JONES AND PARTNERS', 'Sunshine Tax Certs Inc.']);
      expect(await names('county=orange&county=leon')).toEqual(await names('county=orange,leon'));
      expect(await names('min_certificates=12')).toEqual([
        'Gulf Coast Lien Fund II, LLC',
        'Smith & Sons Capital',
        'SMITH, JONES AND PARTNERS',
      ]);
      expect((await search('min_certificates=0')).pagination.total).toBe(7);
      expect(await names('min_certificates=5&county=leon&query=llc')).toEqual(['Acme Tax Fund LLC']);
    });

    const byId = (a: Holder, b: Holder) => a.id.localeCompare(b.id);
    it.each([
      ['face_desc', (a: Holder, b: Holder) => b.outstanding_face_amount - a.outstanding_face_amount || byId(a, b)],
      ['certificates_desc', (a: Holder, b: Holder) => b.certificate_count - a.certificate_count || byId(a, b)],
      ['count_desc', (a: Holder, b: Holder) => b.certificate_count - a.certificate_count || byId(a, b)],
      ['name_asc', (a: Holder, b: Holder) => a.normalized_name.localeCompare(b.normalized_name) || byId(a, b)],
    ] as const)('sort=%s orders row by row', async (sort, cmp) => {
      const got = (await search(`sort=${sort}`)).data;
      expect(got.map((h) => h.id)).toEqual([...all].sort(cmp).map((h) => h.id));
    });

    it('count_desc is certificates_desc; ties (two holders at 12, two at $61,234.56) break on the id', async () => {
      const count = (await search('sort=count_desc')).data;
      expect(count).toEqual((await search('sort=certificates_desc')).data);
      expect(count.map((h) => h.certificate_count)).toEqual([42, 12, 12, 7, 5, 3, 0]);
      const tied = count.filter((h) => h.certificate_count === 12).map((h) => h.id);
      expect(tied).toEqual([...tied].sort());
      const face = (await search('sort=face_desc')).data;
      expect(face.slice(0, 2).map((h) => h.outstanding_face_amount)).toEqual([61234.56, 61234.56]);
      expect(face[0]!.id < face[1]!.id).toBe(true);
    });

    it('pages through every holder exactly once', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 10; offset += 2) {
        const body = (await get(`/api/v1/holders/search?limit=2&offset=${offset}&sort=face_desc`)).json();
        expect(body.pagination).toMatchObject({ limit: 2, offset, total: 7, has_more: offset + 2 < 7 });
        seen.push(...body.data.map((h: Holder) => h.id));
      }
      expect(seen).toEqual((await search('sort=face_desc')).data.map((h) => h.id));
    });

    it('/holders/{id} returns the same object as search, in the object envelope; an unknown id is 404', async () => {
      const holder = all[2]!;
      const res = await get(`/api/v1/holders/${holder.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: holder, meta: { request_id: expect.stringMatching(/^req_/), dataset_status: 'live' } });
      const missing = await get('/api/v1/holders/hld_00000000000000000000');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('not_found');
      expect(missing.json().error).not.toHaveProperty('details');
      expect((await get(`/api/v1/holders/${holder.id}?x=1`)).statusCode).toBe(400);
    });

    it('/holders/search is never taken for an id', async () => {
      const res = await get('/api/v1/holders/search');
      expect(res.statusCode).toBe(200);
      expect(Array.isArray(res.json().data)).toBe(true);
    });

    it.each([
      ['query=', 'query'],
      ['query=!!!', 'query'],
      [`query=${'a'.repeat(201)}`, 'query'],
      ['min_certificates=-1', 'min_certificates'],
      ['min_certificates=1.5', 'min_certificates'],
      ['min_certificates=many', 'min_certificates'],
      ['sort=name_desc', 'sort'],
      ['county=Not%20A%20Slug!', 'county'],
      ['limit=501', 'limit'],
      ['offset=x', 'offset'],
      ['query=a&query=b', 'query'],
      ['holder=gulf', 'holder'],
    ])('400 bad_request for %s, naming %s', async (query, parameter) => {
      const res = await get(`/api/v1/holders/search?${query}`);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('bad_request');
      expect(error.details.issues.map((i: { parameter: string }) => i.parameter)).toContain(parameter);
    });

    it('answers CSV with the same rows; counties are joined with ";"', async () => {
      const res = await get('/api/v1/holders/search?format=csv&sort=certificates_desc');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.trimEnd().split('\n');
      expect(lines[0]).toBe(HOLDER_COLUMNS.join(','));
      expect(lines).toHaveLength(8);
      expect(lines[1]).toBe(
        `${holderId('Gulf Coast Lien Fund II, LLC')},"Gulf Coast Lien Fund II, LLC",gulf coast lien fund ii llc,42,61234.56,alachua;miami-dade,2019,2024`,
      );
      const viaAccept = await get('/api/v1/holders/search?sort=certificates_desc', { accept: 'text/csv' });
      expect(viaAccept.body).toBe(res.body);
    });
  });
});
