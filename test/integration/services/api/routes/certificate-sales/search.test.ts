import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapSale } from '../../../../../../indexer/sales/map-sale.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { floridaToday } from '../../../../../../services/api/routes/certificate-sales/florida-today.ts';
import { SALE_COLUMNS } from '../../../../../../services/api/routes/certificate-sales/row.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { aliasName } from '../../../../../../services/domain/datasets.ts';
import { CertificateSaleRecord } from '../../../../../../services/domain/records.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';

interface Sale {
  id: string;
  county_slug: string;
  tax_year: number;
  sale_date: string;
  vendor: string;
  certificates_offered: number;
  face_value_offered: number;
  status: string;
}

const DAY = 86_400_000;
const today = floridaToday(new Date());
const shift = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
/** The tax year whose certificates are sold in the year of `day` (s. 197.432: tax year Y is sold in Y+1). */
const taxYearSoldOn = (day: string) => Number(day.slice(0, 4)) - 1;
const POLK_YEAR = taxYearSoldOn(shift(-1));
const LEE_YEAR = taxYearSoldOn(shift(30));

/**
 * Sales summaries built by the indexer's own mapper (what the worker writes), a spread of counties, years, days and
 * sizes; each tax year Y sells in Y+1, from April 1 (s. 197.333, s. 197.432).
 */
const SPECS = [
  {
    county: 'alachua',
    name: 'Alachua',
    year: 2023,
    vendor: 'lienport',
    first: '2024-05-20',
    last: '2024-05-22',
    offered: 40,
    face: 50_000,
  },
  { county: 'duval', name: 'Duval', year: 2023, vendor: 'certbid', first: '2024-05-20', last: '2024-05-20', offered: 120, face: 50_000 },
  {
    county: 'orange',
    name: 'Orange',
    year: 2022,
    vendor: 'taxgavel',
    first: '2023-05-25',
    last: '2023-05-31',
    offered: 80,
    face: 75_000.5,
  },
  { county: 'leon', name: 'Leon', year: 2021, vendor: 'lienport', first: '2022-05-27', last: '2022-05-27', offered: 10, face: 9_999.99 },
  {
    county: 'alachua',
    name: 'Alachua',
    year: 2024,
    vendor: 'lienport',
    first: '2025-05-30',
    last: '2025-06-01',
    offered: 55,
    face: 61_000,
  },
  // Relative to the day the test runs: a sale under way and one still to come.
  { county: 'polk', name: 'Polk', year: POLK_YEAR, vendor: 'certbid', first: shift(-1), last: shift(1), offered: 7, face: 1_200 },
  { county: 'lee', name: 'Lee', year: LEE_YEAR, vendor: 'CertBid', first: shift(30), last: shift(31), offered: 3, face: 300 },
];

describe('GET /api/v1/certificate-sales/search', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  // Requests go through one helper, so adding an API key later is a one-line change.
  // Every /api/v1 request needs a key (an Enterprise client's: every feature, 10,000 RPM).
  let auth: Record<string, string> = {};
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });
  const rows = async (query: string): Promise<Sale[]> => {
    const res = await get(`/api/v1/certificate-sales/search?limit=500${query ? `&${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  let all: Sale[];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    // One sale through the real ingest path: certificates -> worker -> derived sale summary.
    const file = fileURLToPath(new URL('../../../../../../fixtures/files/lienport-csv/good.csv', import.meta.url));
    const [outcome] = await enqueueFiles(
      t.runtime,
      [{ dataset: 'certificates', file, vendor: 'lienport', county: 'miami-dade', taxYear: 2024 }],
      { wait: true },
    );
    expect(outcome?.status).toBe('succeeded');
    const body = SPECS.flatMap((s) => {
      const sale = mapSale(
        {
          total: s.offered,
          face_offered: { value: s.face },
          first_sale: { value: Date.parse(`${s.first}T00:00:00Z`) },
          last_sale: { value: Date.parse(`${s.last}T00:00:00Z`) },
          struck: { doc_count: 1 },
          sold: { doc_count: s.offered - 1, face: { value: s.face / 2 }, rate: { value: 5 } },
        },
        {
          countySlug: s.county,
          countyName: s.name,
          taxYear: s.year,
          vendor: s.vendor,
          saleUrl: `https://${s.county}.example/sale`,
          today: '2000-01-01', // the status stored at ingest, which the API must not serve
          updatedAt: '2025-01-01T00:00:00.000Z',
        },
      );
      return [{ index: { _id: sale!.id } }, CertificateSaleRecord.parse(sale)];
    });
    await t.runtime.opensearch.bulk({ index: aliasName(t.config.INDEX_PREFIX, 'sales'), body, refresh: true });
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
    all = await rows('');
  });
  afterAll(async () => {
    await app?.close();
    await t.teardown();
  });

  it('serves the ingested sale summary with exactly the fields of spec 2.3; the last sale day is stored', async () => {
    expect(all).toHaveLength(SPECS.length + 1);
    const ingested = all.find((s) => s.county_slug === 'miami-dade')!;
    expect(Object.keys(ingested)).toEqual(SALE_COLUMNS);
    expect(ingested).toMatchObject({
      id: expect.stringMatching(/^csale_/),
      county_name: 'Miami-Dade',
      tax_year: 2024,
      sale_date: '2025-05-28',
      vendor: 'lienport',
      certificates_offered: 5,
      certificates_sold: 3,
      struck_to_county: 1,
      status: 'completed',
    });
    const stored = await t.runtime.opensearch.get({ index: aliasName(t.config.INDEX_PREFIX, 'sales'), id: ingested.id });
    expect(stored.body._source).toMatchObject({ sale_date: '2025-05-28', last_sale_date: '2025-05-28' });
  });

  it('derives the status on the day it is read, not the one stored at ingest', async () => {
    const status = Object.fromEntries(all.map((s) => [`${s.county_slug}-${s.tax_year}`, s.status]));
    expect(status).toMatchObject({
      [`polk-${POLK_YEAR}`]: 'in_progress',
      [`lee-${LEE_YEAR}`]: 'scheduled',
      'alachua-2023': 'completed',
      'orange-2022': 'completed',
    });
  });

  it('orders newest sale first by default, ties by county then id', async () => {
    const expected = [...all].sort(
      (a, b) => b.sale_date.localeCompare(a.sale_date) || a.county_slug.localeCompare(b.county_slug) || a.id.localeCompare(b.id),
    );
    expect(all.map((s) => s.id)).toEqual(expected.map((s) => s.id));
    expect(all[0]!.county_slug).toBe('lee');
    // Two sales open on 2024-05-20: alachua before duval.
    const sameDay = all.filter((s) => s.sale_date === '2024-05-20').map((s) => s.county_slug);
    expect(sameDay).toEqual(['alachua', 'duval']);
  });

  const cmp = {
    sale_date_desc: (a: Sale, b: Sale) =>
      b.sale_date.localeCompare(a.sale_date) || a.county_slug.localeCompare(b.county_slug) || a.id.localeCompare(b.id),
    sale_date_asc: (a: Sale, b: Sale) =>
      a.sale_date.localeCompare(b.sale_date) || a.county_slug.localeCompare(b.county_slug) || a.id.localeCompare(b.id),
    year_newest: (a: Sale, b: Sale) => b.tax_year - a.tax_year || a.county_slug.localeCompare(b.county_slug) || a.id.localeCompare(b.id),
    year_oldest: (a: Sale, b: Sale) => a.tax_year - b.tax_year || a.county_slug.localeCompare(b.county_slug) || a.id.localeCompare(b.id),
    face_desc: (a: Sale, b: Sale) => b.face_value_offered - a.face_value_offered || a.id.localeCompare(b.id),
    certificates_desc: (a: Sale, b: Sale) => b.certificates_offered - a.certificates_offered || a.id.localeCompare(b.id),
  };

  it.each(Object.keys(cmp) as (keyof typeof cmp)[])('sort=%s orders row by row', async (sort) => {
    const got = await rows(`sort=${sort}`);
    expect(got.map((s) => s.id)).toEqual([...all].sort(cmp[sort]).map((s) => s.id));
  });

  it('face_desc and certificates_desc use the offered figures (and tie on the id)', async () => {
    const face = await rows('sort=face_desc');
    expect(face.slice(0, 2).map((s) => s.face_value_offered)).toEqual([105322.19, 75000.5]);
    const tied = face.filter((s) => s.face_value_offered === 50_000).map((s) => s.id);
    expect(tied).toEqual([...tied].sort());
    expect(tied).toHaveLength(2);
    const certs = await rows('sort=certificates_desc');
    expect(certs.map((s) => s.certificates_offered)).toEqual([120, 80, 55, 40, 10, 7, 5, 3]);
  });

  it('filters by county (repeated or comma-separated), tax year (several) and vendor ignoring case', async () => {
    const byCounty = (await rows('county=alachua&county=duval')).map((s) => `${s.county_slug}-${s.tax_year}`);
    expect(byCounty.sort()).toEqual(['alachua-2023', 'alachua-2024', 'duval-2023']);
    expect((await rows('county=alachua,duval')).length).toBe(3);
    expect((await rows('tax_year=2021,2022')).map((s) => s.county_slug).sort()).toEqual(['leon', 'orange']);
    expect((await rows('tax_year=2023&county=duval')).map((s) => s.county_slug)).toEqual(['duval']);
    expect((await rows('vendor=CERTBID')).map((s) => s.county_slug).sort()).toEqual(['duval', 'lee', 'polk']);
    expect((await rows('vendor=certbid')).length).toBe(3);
    // An unknown vendor matches nothing: 200, empty, not a 400; and no partial match.
    expect(await rows('vendor=nosuchvendor')).toEqual([]);
    expect(await rows('vendor=cert')).toEqual([]);
  });

  it('filters on sale_date with inclusive sale_after / sale_before', async () => {
    const days = async (q: string) => (await rows(q)).map((s) => s.sale_date).sort();
    expect(await days('sale_after=2024-05-20&sale_before=2025-05-28')).toEqual(['2024-05-20', '2024-05-20', '2025-05-28']);
    expect(await days('sale_before=2023-05-25')).toEqual(['2022-05-27', '2023-05-25']);
    expect((await days('sale_after=2025-05-30')).length).toBe(3);
    expect(await days('sale_after=2024-05-21&sale_before=2024-05-21')).toEqual([]);
  });

  // Small pages matter: OpenSearch 3.8 returns wrong top hits for a descending sort on a
  // scaled_float field (opensearch-project/OpenSearch#17833), which only shows below the page size.
  it.each(['sale_date_desc', 'face_desc', 'certificates_desc'])(
    'pages through every sale exactly once (sort=%s, limit 2)',
    async (sort) => {
      const seen: string[] = [];
      for (let offset = 0; ; offset += 2) {
        const body = (await get(`/api/v1/certificate-sales/search?sort=${sort}&limit=2&offset=${offset}`)).json();
        expect(body.pagination).toEqual({ limit: 2, offset, total: all.length, has_more: offset + body.data.length < all.length });
        seen.push(...body.data.map((s: Sale) => s.id));
        if (!body.pagination.has_more) break;
      }
      expect(seen).toEqual((await rows(`sort=${sort}`)).map((s) => s.id));
    },
  );

  it('answers in the list envelope with defaults limit 25, offset 0', async () => {
    const body = (await get('/api/v1/certificate-sales/search')).json();
    expect(Object.keys(body)).toEqual(['data', 'pagination', 'meta']);
    expect(body.pagination).toEqual({ limit: 25, offset: 0, total: all.length, has_more: false });
    expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
  });

  it.each([
    ['sale_after=2024-06-02&sale_before=2024-06-01', 'sale_after'],
    ['sale_after=2024-02-30', 'sale_after'],
    ['sale_before=06/01/2024', 'sale_before'],
    ['sort=newest', 'sort'],
    ['tax_year=twenty', 'tax_year'],
    ['tax_year=2024.5', 'tax_year'],
    ['county=Miami_Dade', 'county'],
    ['county=alachua,', 'county'],
    [`vendor=${'x'.repeat(81)}`, 'vendor'],
    ['vendor=a&vendor=b', 'vendor'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['offset=-1', 'offset'],
    ['status=completed', 'status'],
    ['format=xml', 'format'],
  ])('400 bad_request for %s, naming %s', async (query, parameter) => {
    const res = await get(`/api/v1/certificate-sales/search?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const { error } = res.json();
    expect(error.code).toBe('bad_request');
    expect(error.details.issues.map((i: { parameter: string }) => i.parameter)).toContain(parameter);
  });

  it('answers CSV with the same rows and a header line (format=csv or Accept: text/csv)', async () => {
    const json = (await get('/api/v1/certificate-sales/search?sort=year_oldest')).json().data as Sale[];
    for (const res of [
      await get('/api/v1/certificate-sales/search?sort=year_oldest&format=csv'),
      await get('/api/v1/certificate-sales/search?sort=year_oldest', { accept: 'text/csv' }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.trimEnd().split('\n');
      expect(lines[0]).toBe(SALE_COLUMNS.join(','));
      expect(lines).toHaveLength(json.length + 1);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.map((s) => s.id));
    }
  });
});
