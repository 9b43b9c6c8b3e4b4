import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { LANDS_COLUMNS } from '../../../../../../services/api/routes/lands-available/row.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { certificateId } from '../../../../../../services/domain/ids.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';

interface Lands {
  id: string;
  certificate_number: string;
  county_slug: string;
  parcel_id: string;
  tax_year: number;
  opening_bid: number;
  available_since: string;
  parcel_url: string;
}

const HEADER =
  '"Certificate Number","Parcel ID","Tax Year","Face Amount","Opening Bid","Tax Deed Application Date","Date Placed on List","Owner","Situs Address"';
/**
 * Two county lists in the clerk format the worker reads; three rows tie on opening bid, two on available_since.
 * Every deed application is lawful: a tax year Y certificate, sold in Y+1, allows one from April 1 of Y+3
 * (s. 197.502(1)); two rows apply on that very day.
 */
const ALACHUA = [
  HEADER,
  '2019-001234,01234-005-000,2019,"$1,234.56","$3,456.78",06/15/2022,09/01/2022,"SMITH, JOHN & MARY","123 NW 5TH AVE, GAINESVILLE, FL 32601"',
  '2020-000077,17-10-20-0000-0001-0010,2020,$512.00,$0.00,04/10/2023,04/10/2023,OAK GROVE HOLDINGS INC,"77 SE 2ND ST, HIGH SPRINGS, FL 32643"',
  '2020-000078,17-10-20-0000-0001-0020,2020,$900.00,"$2,500.00",04/03/2023,05/15/2023,DOE JANE,"1 MAIN ST, GAINESVILLE, FL 32601"',
  '2021-000500,05-11-22-0000-0002-0001,2021,"$1,500.00","$2,500.00",04/01/2024,04/01/2024,GARCIA ANA,"9 OAK ST, ALACHUA, FL 32615"',
  '2018-000010,01111-001-000,2018,$300.00,"$10,000.00",05/05/2021,06/01/2021,LEE TOM,"5 ELM ST, GAINESVILLE, FL 32601"',
  '',
].join('\n');
const DUVAL = [
  HEADER,
  '2019-100001,012345-0000,2019,"$2,000.00","$5,000.50",04/01/2022,04/04/2022,"JONES, AMY","10 BAY ST, JACKSONVILLE, FL 32202"',
  '2020-100002,012345-0010,2020,$750.00,$100.00,04/03/2023,04/04/2024,"BROWN, BOB","20 BAY ST, JACKSONVILLE, FL 32202"',
  '2021-100003,012345-0020,2021,$60.00,"$2,500.00",04/01/2024,04/01/2024,"WHITE, SUE","30 BAY ST, JACKSONVILLE, FL 32202"',
  '',
].join('\n');

describe('GET /api/v1/lands-available/search', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  // Every /api/v1 request needs a key (an Enterprise client's: every feature, 10,000 RPM).
  let auth: Record<string, string> = {};
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });
  const search = async (query: string, on = app) => {
    const res = await on.inject({
      method: 'GET',
      url: `/api/v1/lands-available/search?limit=500${query ? `&${query}` : ''}`,
      headers: auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Lands[]; pagination: { total: number }; meta: Record<string, unknown> };
  };
  const numbers = async (query: string) => (await search(query)).data.map((r) => r.certificate_number);

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'lands-api-'));
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers an empty list with meta.coverage.status not_yet_ingested while the dataset is empty', async () => {
    for (const query of ['', 'county=alachua&sort=opening_bid_desc']) {
      const body = await search(query);
      expect(body.data).toEqual([]);
      expect(body.pagination).toEqual({ limit: 500, offset: 0, total: 0, has_more: false });
      expect(body.meta).toEqual({
        request_id: expect.stringMatching(/^req_/),
        dataset_status: 'live',
        coverage: { status: 'not_yet_ingested' },
      });
    }
  });

  describe('after two county lists are ingested', () => {
    let all: Lands[];
    beforeAll(async () => {
      const jobs = (
        [
          ['alachua', ALACHUA],
          ['duval', DUVAL],
        ] as const
      ).map(([county, text]) => {
        const file = join(dir, `${county}.csv`);
        writeFileSync(file, text);
        return { dataset: 'lands-available' as const, file, vendor: 'county_local', county, taxYear: 2024 };
      });
      const outcomes = await enqueueFiles(t.runtime, jobs, { wait: true });
      expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
      all = (await search('')).data;
    });

    it('serves exactly the fields of spec 2.5, newest on the list first by default, and no coverage key', async () => {
      const body = await search('');
      expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
      expect(all).toHaveLength(8);
      for (const row of all) expect(Object.keys(row)).toEqual(LANDS_COLUMNS);
      expect(all.find((r) => r.certificate_number === '2019-001234')).toEqual({
        id: certificateId('alachua', 2019, '2019-001234'),
        certificate_number: '2019-001234',
        county_slug: 'alachua',
        county_name: 'Alachua',
        parcel_id: '01234-005-000',
        tax_year: 2019,
        status: 'lands_available',
        face_amount: 1234.56,
        opening_bid: 3456.78,
        tax_deed_application_date: '2022-06-15',
        available_since: '2022-09-01',
        owner_name: 'SMITH, JOHN & MARY',
        site_address_full: '123 NW 5TH AVE, GAINESVILLE, FL 32601',
        parcel_url: `${t.config.PARCEL_BASE_URL}/alachua/01234-005-000`,
      });
      expect(all.map((r) => r.available_since)).toEqual([
        '2024-04-04',
        '2024-04-01',
        '2024-04-01',
        '2023-05-15',
        '2023-04-10',
        '2022-09-01',
        '2022-04-04',
        '2021-06-01',
      ]);
    });

    it('a search that matches nothing on a non-empty dataset has no coverage key', async () => {
      const body = await search('county=leon');
      expect(body.pagination.total).toBe(0);
      expect(body.meta).not.toHaveProperty('coverage');
    });

    const byId = (a: Lands, b: Lands) => a.id.localeCompare(b.id);
    it.each([
      ['opening_bid_asc', (a: Lands, b: Lands) => a.opening_bid - b.opening_bid || byId(a, b)],
      ['opening_bid_desc', (a: Lands, b: Lands) => b.opening_bid - a.opening_bid || byId(a, b)],
      ['available_since_desc', (a: Lands, b: Lands) => b.available_since.localeCompare(a.available_since) || byId(a, b)],
    ] as const)('sort=%s orders row by row, ties on the id, page by page too', async (sort, cmp) => {
      const expected = [...all].sort(cmp).map((r) => r.id);
      expect((await search(`sort=${sort}`)).data.map((r) => r.id)).toEqual(expected);
      const paged: string[] = [];
      for (let offset = 0; offset < 8; offset += 3)
        paged.push(
          ...(await get(`/api/v1/lands-available/search?sort=${sort}&limit=3&offset=${offset}`)).json().data.map((r: Lands) => r.id),
        );
      expect(paged).toEqual(expected);
    });

    it('opening bid order puts the three $2,500.00 ties in id order', async () => {
      const rows = (await search('sort=opening_bid_desc')).data;
      expect(rows.map((r) => r.opening_bid)).toEqual([10000, 5000.5, 3456.78, 2500, 2500, 2500, 100, 0]);
      const tied = rows.filter((r) => r.opening_bid === 2500).map((r) => r.id);
      expect(tied).toEqual([...tied].sort());
    });

    it('filters by county, tax year and an inclusive opening-bid range', async () => {
      expect((await numbers('county=duval')).sort()).toEqual(['2019-100001', '2020-100002', '2021-100003']);
      expect((await numbers('county=duval,alachua')).length).toBe(8);
      expect((await numbers('county=duval&county=alachua')).length).toBe(8);
      expect((await numbers('tax_year=2020')).sort()).toEqual(['2020-000077', '2020-000078', '2020-100002']);
      expect((await numbers('tax_year=2018,2021')).sort()).toEqual(['2018-000010', '2021-000500', '2021-100003']);
      expect((await numbers('min_opening_bid=2500&max_opening_bid=5000.5')).sort()).toEqual([
        '2019-001234',
        '2019-100001',
        '2020-000078',
        '2021-000500',
        '2021-100003',
      ]);
      expect(await numbers('min_opening_bid=0&max_opening_bid=0')).toEqual(['2020-000077']);
      expect((await numbers('min_opening_bid=5000')).sort()).toEqual(['2018-000010', '2019-100001']);
      expect(await numbers('max_opening_bid=100&county=duval')).toEqual(['2020-100002']);
    });

    it('builds parcel_url from PARCEL_BASE_URL as configured when the row is rendered', async () => {
      const other = await buildApp({ ...t.runtime, config: { ...t.config, PARCEL_BASE_URL: 'https://parcels.example.org/v2/' } });
      try {
        const rows = (await search('county=alachua&tax_year=2020&sort=opening_bid_asc', other)).data;
        expect(rows.map((r) => r.parcel_url)).toEqual([
          'https://parcels.example.org/v2/alachua/17-10-20-0000-0001-0010',
          'https://parcels.example.org/v2/alachua/17-10-20-0000-0001-0020',
        ]);
      } finally {
        await other.close();
      }
    });

    it.each([
      ['min_opening_bid=5000&max_opening_bid=100', 'min_opening_bid'],
      ['min_opening_bid=-1', 'min_opening_bid'],
      ['max_opening_bid=lots', 'max_opening_bid'],
      ['tax_year=1800', 'tax_year'],
      ['sort=opening_bid', 'sort'],
      ['limit=1000', 'limit'],
      ['offset=1.5', 'offset'],
      ['county=', 'county'],
      ['status=lands_available', 'status'],
      ['max_opening_bid=1&max_opening_bid=2', 'max_opening_bid'],
    ])('400 bad_request for %s, naming %s', async (query, parameter) => {
      const res = await get(`/api/v1/lands-available/search?${query}`);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('bad_request');
      expect(error.details.issues.map((i: { parameter: string }) => i.parameter)).toContain(parameter);
    });

    it('answers CSV with the same rows and a header line', async () => {
      const json = (await search('sort=opening_bid_asc')).data;
      const res = await get('/api/v1/lands-available/search?limit=500&sort=opening_bid_asc', {
        accept: 'text/csv, application/json;q=0.5',
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.trimEnd().split('\n');
      expect(lines[0]).toBe(LANDS_COLUMNS.join(','));
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.map((r) => r.id));
      expect(res.body).toContain('"SMITH, JOHN & MARY"');
    });
  });
});
