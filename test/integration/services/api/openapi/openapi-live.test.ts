// @module-tag postgres
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { certificateId, holderId } from '../../../../../services/domain/ids.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';
import { appendEvents } from '../../../../../services/control/feed/events.ts';
import { mapCertificate } from '../../../../../services/domain/certificate-row.ts';
import { sampleCertificate } from '../../../../helpers/sample-certificate.ts';
import { fanOut } from '../../../../../services/control/feed/webhook-deliveries.ts';
import { createSavedSearch } from '../../../../../services/control/feed/saved-searches.ts';
import { addPositions, createPortfolio } from '../../../../../services/control/portfolios/index.ts';
import { createEndpoint } from '../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../services/control/feed/webhook-secrets.ts';
import { apiKeyHeaders } from '../../../../helpers/access.ts';
import { buildCertificateSnapshots } from '../../../../../services/bulk/build-certificates.ts';
import { folderStorage } from '../../../../../services/bulk/folder-storage.ts';
import { fixturePath, loadEveryDataset } from '../../../../helpers/every-dataset.ts';

/**
 * Live responses of every /api/v1 route, checked against the OpenAPI document the server publishes,
 * so the document cannot drift from the routes: each documented path must have sample requests
 * below, each answer's status must be one the document lists for that path, and its body must
 * validate against that status's schema (JSON Schema 2020-12, which OpenAPI 3.1 uses; row objects
 * are closed, so a leaked field fails), and every header the document promises for that status is
 * on the answer.
 */

const _fixture = (path: string) => fileURLToPath(new URL(`../../../../../fixtures/files/${path}`, import.meta.url));
const CERT = certificateId('miami-dade', 2024, '2024-000101');
const HOLDER = holderId('Gulf Coast Lien Fund II, LLC');

/** Sample requests per documented path: successes and the documented errors (400, 404). */
const SAMPLES: Record<string, string[]> = {
  '/api/v1/openapi.json': ['/api/v1/openapi.json'],
  '/api/v1/counties': ['/api/v1/counties', '/api/v1/counties?limit=5'],
  '/api/v1/counties/{county}': ['/api/v1/counties/miami-dade', '/api/v1/counties/atlantis'],
  '/api/v1/certificate-sales/search': [
    '/api/v1/certificate-sales/search',
    '/api/v1/certificate-sales/search?county=miami-dade,alachua&tax_year=2024&vendor=LIENPORT&sort=face_desc&limit=1',
    '/api/v1/certificate-sales/search?sale_after=2025-01-01&sale_before=2024-01-01',
  ],
  '/api/v1/holders/search': [
    '/api/v1/holders/search',
    '/api/v1/holders/search?query=gulf%20coast&county=alachua&min_certificates=1&sort=count_desc',
    '/api/v1/holders/search?min_certificates=-1',
  ],
  '/api/v1/holders/{id}': [`/api/v1/holders/${HOLDER}`, '/api/v1/holders/hld_00000000000000000000'],
  '/api/v1/lands-available/search': [
    '/api/v1/lands-available/search',
    '/api/v1/lands-available/search?county=alachua&tax_year=2019,2020&min_opening_bid=0&max_opening_bid=5000&sort=opening_bid_desc',
    '/api/v1/lands-available/search?min_opening_bid=2&max_opening_bid=1',
  ],
  '/api/v1/sources': [
    '/api/v1/sources',
    '/api/v1/sources?county=miami-dade&vendor=lien&active=true&limit=1',
    '/api/v1/sources?active=maybe',
  ],
  '/api/v1/bulk/files': [
    '/api/v1/bulk/files',
    '/api/v1/bulk/files?dataset=certificates&county=miami-dade&tax_year=2024&format=parquet&kind=snapshot&since=2025-01-01',
    '/api/v1/bulk/files?format=xlsx',
  ],
  '/api/v1/bulk/files/{name}': [
    '/api/v1/bulk/files/certificates.miami-dade.2024.snapshot.ndjson.gz',
    '/api/v1/bulk/files/certificates.leon.2019.snapshot.parquet',
  ],
  '/api/v1/sources/{county}': ['/api/v1/sources/miami-dade', '/api/v1/sources/leon', '/api/v1/sources/miami-dade?limit=0'],
  // The certificate routes (branch api-certs) and account/usage (branch access): checked as soon
  // as they are in the published document. TODO(lead): when access lands, /account/usage needs a
  // key, which get() below must send for every /api/v1 request.
  '/api/v1/certificates/search': [
    '/api/v1/certificates/search',
    '/api/v1/certificates/search?query=smith&facets=county,status,tax_year,vendor,redeemed',
    '/api/v1/certificates/search?county=miami-dade&sort=face_desc&limit=2&offset=1',
    '/api/v1/certificates/search?face_min=2&face_max=1',
    '/api/v1/certificates/search?format=geojson&expand=parcel&limit=3',
    '/api/v1/certificates/search?near=25.77,-80.19&radius=3mi&sort=distance_asc&homestead=false&just_value_min=150000',
    '/api/v1/certificates/search?bbox=-80.1,25.7,-80.3,25.9',
  ],
  '/api/v1/certificates/geo-grid': ['/api/v1/certificates/geo-grid?zoom=10&county=miami-dade', '/api/v1/certificates/geo-grid?zoom=19'],
  '/api/v1/certificates/by-parcel': [
    '/api/v1/certificates/by-parcel?county=miami-dade&parcel_id=01-3125-041-0010',
    '/api/v1/certificates/by-parcel?county=miami-dade&parcel_id=nope',
    '/api/v1/certificates/by-parcel?county=miami-dade',
  ],
  '/api/v1/certificates/{id}': [
    `/api/v1/certificates/${CERT}`,
    `/api/v1/certificates/${CERT}?expand=parcel&format=geojson`,
    '/api/v1/certificates/cert_00000000000000000000',
  ],
  '/api/v1/certificates/counts': [
    '/api/v1/certificates/counts',
    '/api/v1/certificates/counts?county=miami-dade&tax_year=2024',
    '/api/v1/certificates/counts?polygon=25.7,-80.3;25.9,-80.3;25.9,-80.1&owner_type=entity',
  ],
  '/api/v1/certificates/fields': ['/api/v1/certificates/fields'],
  '/api/v1/certificates/freshness': ['/api/v1/certificates/freshness'],
  '/api/v1/account/usage': ['/api/v1/account/usage'],
  // The per-certificate investor answers (the certificate was sold 2025-05-28).
  '/api/v1/certificates/{id}/redemption': [
    `/api/v1/certificates/${CERT}/redemption?date=2026-02-10`,
    `/api/v1/certificates/${CERT}/redemption?date=2032-06-01`,
    `/api/v1/certificates/${CERT}/redemption?date=2025-05-27`,
    '/api/v1/certificates/cert_00000000000000000000/redemption',
  ],
  '/api/v1/certificates/{id}/timeline': [
    `/api/v1/certificates/${CERT}/timeline?date=2026-02-10`,
    `/api/v1/certificates/${CERT}/timeline?date=x`,
  ],
  '/api/v1/certificates/{id}/deed-estimate': [
    `/api/v1/certificates/${CERT}/deed-estimate?date=2027-04-01`,
    '/api/v1/certificates/cert_00000000000000000000/deed-estimate?date=2027-04-01',
  ],
  '/api/v1/analytics/bid-rates': [
    '/api/v1/analytics/bid-rates',
    '/api/v1/analytics/bid-rates?county=miami-dade,alachua&tax_year=2024&vendor=LIENPORT',
    '/api/v1/analytics/bid-rates?county=atlantis',
  ],
  '/api/v1/analytics/redemption-curve': [
    '/api/v1/analytics/redemption-curve',
    '/api/v1/analytics/redemption-curve?county=miami-dade&tax_year=2024&face_min=100&rate_max=5&as_of=2026-01-31',
    '/api/v1/analytics/redemption-curve?face_min=999999999',
    '/api/v1/analytics/redemption-curve?rate_min=5&rate_max=1',
  ],
  '/api/v1/analytics/expected-yield': [
    '/api/v1/analytics/expected-yield?target_yield=10',
    '/api/v1/analytics/expected-yield?county=miami-dade&rates=0.25,8,18&horizon_months=24',
    '/api/v1/analytics/expected-yield?rates=0.3',
  ],
  // The change feed (the ingest above recorded its events; evt_999999 was never given).
  '/api/v1/events': [
    '/api/v1/events',
    '/api/v1/events?type=certificates.loaded,certificate_sale.created,county.coverage_changed&county=miami-dade&limit=2',
    '/api/v1/events?after=evt_1&limit=1',
    '/api/v1/events?after=evt_999999',
    '/api/v1/events?after=1',
  ],
  '/api/v1/analytics/holders': [
    '/api/v1/analytics/holders',
    '/api/v1/analytics/holders?county=miami-dade&sort=median_rate_asc&limit=3',
    '/api/v1/analytics/holders?query=fund&sort=name_asc',
    '/api/v1/analytics/holders?sort=cheapest',
  ],
  // The calling client's webhook endpoints; the deliveries sample of its own endpoint is added in beforeAll.
  '/api/v1/webhook-endpoints': ['/api/v1/webhook-endpoints', '/api/v1/webhook-endpoints?limit=0'],
  '/api/v1/webhook-endpoints/{id}': ['/api/v1/webhook-endpoints/whe_unknown'],
  '/api/v1/webhook-endpoints/{id}/deliveries': [
    '/api/v1/webhook-endpoints/whe_unknown/deliveries',
    '/api/v1/webhook-endpoints/whe_unknown/deliveries?status=lost',
  ],
  // The calling client's saved searches; one of its own is added in beforeAll.
  '/api/v1/saved-searches': ['/api/v1/saved-searches', '/api/v1/saved-searches?limit=0'],
  '/api/v1/saved-searches/{id}': ['/api/v1/saved-searches/ss_unknown'],
  '/api/v1/saved-searches/{id}/matches': [
    '/api/v1/saved-searches/ss_unknown/matches',
    '/api/v1/saved-searches/ss_unknown/matches?sort=cheap',
  ],
  // The calling client's portfolios; one of its own is added in beforeAll.
  '/api/v1/portfolios': ['/api/v1/portfolios', '/api/v1/portfolios?limit=0'],
  '/api/v1/portfolios/{id}': ['/api/v1/portfolios/pf_unknown'],
  '/api/v1/portfolios/{id}/positions': ['/api/v1/portfolios/pf_unknown/positions'],
  '/api/v1/portfolios/{id}/summary': ['/api/v1/portfolios/pf_unknown/summary'],
  '/api/v1/portfolios/{id}/calendar.ics': ['/api/v1/portfolios/pf_unknown/calendar.ics'],
};

interface Operation {
  responses: Record<string, { headers?: Record<string, object>; content?: Record<string, { schema?: object }> }>;
}
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('live responses of every /api/v1 route validate against /api/v1/openapi.json', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let doc: OpenApi;
  /** The same document with every $ref replaced by its component, for the validator. */
  let resolved: OpenApi;
  const validators = new Map<string, ValidateFunction>();
  // One helper for every request, so adding an API key later is a one-line change.
  // Every /api/v1 request needs a key (an Enterprise client's).
  let auth: Record<string, string> = {};
  const get = (url: string) => app.inject({ method: 'GET', url, headers: auth });

  // The paths read by GET; the writes are checked by their own test below.
  const documented = () => Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/') && doc.paths[p]?.get);

  /** The path template a sample URL belongs to (the samples table says so). */
  async function check(
    template: string,
    url: string,
    method: 'get' | 'post' | 'patch' | 'delete' = 'get',
    payload?: object,
  ): Promise<number> {
    const op = resolved.paths[template]?.[method];
    expect(op, `${template} is not a documented ${method}`).toBeDefined();
    const res =
      method === 'get'
        ? await get(url)
        : await app.inject({ method: method.toUpperCase() as 'POST', url, headers: auth, ...(payload ? { payload } : {}) });
    const status = String(res.statusCode);
    expect(Object.keys(op!.responses), `${url} answered ${status}, which ${template} does not document: ${res.body}`).toContain(status);
    const promised = Object.keys(op!.responses[status]!.headers ?? {}).map((h) => h.toLowerCase());
    expect(
      promised.filter((h) => res.headers[h] === undefined),
      `${url} (${status}) lacks documented headers`,
    ).toEqual([]);
    // A calendar's 200 is iCalendar text, shown as its documented example is; anything else is JSON.
    const calendar = op!.responses[status]!.content?.['text/calendar'];
    if (calendar) {
      expect(res.headers['content-type']).toMatch(/^text\/calendar/);
      expect(res.body.slice(0, 17)).toBe(String((calendar as { example?: string }).example).slice(0, 17));
      return res.statusCode;
    }
    // A bulk file's 200 is the file's own bytes.
    if (op!.responses[status]!.content?.['application/octet-stream']) {
      expect(res.headers['content-type']).not.toMatch(/^application\/json/);
      return res.statusCode;
    }
    // format=geojson answers GeoJSON, checked against its own documented schema; anything else is JSON.
    const media = /^application\/geo\+json/.test(String(res.headers['content-type'])) ? 'application/geo+json' : 'application/json';
    expect(res.headers['content-type']).toMatch(media === 'application/json' ? /^application\/json/ : /^application\/geo\+json/);
    const key = `${method} ${template} ${status} ${media}`;
    let validate = validators.get(key);
    if (!validate) {
      const schema = op!.responses[status]!.content?.[media]?.schema;
      expect(schema, `${key} has no JSON schema`).toBeDefined();
      validate = ajv.compile(schema!);
      validators.set(key, validate);
    }
    const body = res.json();
    expect(
      validate(body),
      `${url} (${status}) does not match the document: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 800)}`,
    ).toBe(true);
    return res.statusCode;
  }

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (ajvFormats.default as unknown as (a: Ajv2020) => void)(ajv);

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
    // An endpoint of the calling client, with one event delivered to it: the deliveries route then answers rows.
    const clientId = Object.values(
      (await t.runtime.sql.get<Record<string, string>>("SELECT id FROM clients WHERE name = 'route tests enterprise'"))!,
    )[0]!;
    const { endpoint } = await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId,
      url: 'https://hooks.example.com/taxcert',
      types: null,
      counties: null,
    });
    await appendEvents(t.runtime.sql, [
      { type: 'certificate.redeemed', countySlug: 'miami-dade', data: { object: redeemedRow('miami-dade'), previous: { status: 'sold' } } },
    ]);
    await fanOut(t.runtime.sql, 100);
    SAMPLES['/api/v1/webhook-endpoints/{id}/deliveries']!.push(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    SAMPLES['/api/v1/webhook-endpoints/{id}']!.push(`/api/v1/webhook-endpoints/${endpoint.id}`);
    const saved = await createSavedSearch(t.runtime.sql, { clientId, name: 'Miami-Dade', params: { county: ['miami-dade'] }, limit: 10 });
    SAMPLES['/api/v1/saved-searches/{id}']!.push(`/api/v1/saved-searches/${saved.id}`);
    SAMPLES['/api/v1/saved-searches/{id}/matches']!.push(
      `/api/v1/saved-searches/${saved.id}/matches`,
      `/api/v1/saved-searches/${saved.id}/matches?sort=face_desc&limit=2&facets=status,tax_year`,
    );
    const portfolio = await createPortfolio(t.runtime.sql, { clientId, name: 'Miami-Dade book', followHolderGroup: null, limit: 10 });
    SAMPLES['/api/v1/portfolios/{id}']!.push(`/api/v1/portfolios/${portfolio.id}`);
    // One position of a certificate the ingest below loads, one of a certificate never loaded.
    const position = { acquired_on: null, acquired_amount_cents: null, note: null };
    await addPositions(
      t.runtime.sql,
      portfolio.id,
      [
        { ...position, certificate_id: CERT, county_slug: 'miami-dade', certificate_number: '2024-000101', tax_year: 2024 },
        {
          ...position,
          certificate_id: certificateId('miami-dade', 2024, '2024-999999'),
          county_slug: 'miami-dade',
          certificate_number: '2024-999999',
          tax_year: 2024,
        },
      ],
      10,
    );
    SAMPLES['/api/v1/portfolios/{id}/positions']!.push(
      `/api/v1/portfolios/${portfolio.id}/positions`,
      `/api/v1/portfolios/${portfolio.id}/positions?sort=payoff_desc&as_of=2026-06-01&limit=1`,
      `/api/v1/portfolios/${portfolio.id}/positions?sort=sideways`,
    );
    SAMPLES['/api/v1/portfolios/{id}/calendar.ics']!.push(`/api/v1/portfolios/${portfolio.id}/calendar.ics`);
    SAMPLES['/api/v1/portfolios/{id}/summary']!.push(
      `/api/v1/portfolios/${portfolio.id}/summary`,
      `/api/v1/portfolios/${portfolio.id}/summary?as_of=2026-13-01`,
    );
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as OpenApi;
  });
  afterAll(async () => {
    await app?.close();
    await t.teardown();
  });

  it('has sample requests for every documented /api/v1 path, and no sample for a path nobody documents', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const missing = documented().filter((p) => !SAMPLES[p]);
    expect(missing, 'add sample requests for these paths to SAMPLES in this file').toEqual([]);
    const stray = Object.keys(SAMPLES).filter((p) => !doc.paths[p]);
    expect(stray).toEqual([]);
  });

  it('empty holders and lands-available datasets answer as documented (coverage in meta, 404 for an id)', async () => {
    for (const template of ['/api/v1/holders/search', '/api/v1/holders/{id}', '/api/v1/lands-available/search'])
      for (const url of SAMPLES[template]!) await check(template, url);
    expect((await get('/api/v1/holders/search')).json().meta.coverage).toEqual({ status: 'not_yet_ingested' });
  });

  describe('with every dataset loaded through the ingest paths', () => {
    beforeAll(async () => {
      await loadEveryDataset(t.runtime, { file: fixturePath('files/lienport-csv/good.csv'), county: 'miami-dade', taxYear: 2024 });
      await buildCertificateSnapshots({ ...t.runtime, storage: folderStorage(t.config.BULK_DIR) });
    });

    it('every sample of every documented path answers a documented status with a body that matches its schema', async () => {
      const answered = new Map<string, number[]>();
      for (const template of documented()) {
        const statuses: number[] = [];
        for (const url of SAMPLES[template] ?? []) statuses.push(await check(template, url));
        answered.set(template, statuses);
      }
      // Each path was seen succeeding at least once, with rows where it lists any.
      for (const [template, statuses] of answered) expect(statuses, template).toContain(200);
      for (const url of ['/api/v1/certificate-sales/search', '/api/v1/holders/search', '/api/v1/lands-available/search', '/api/v1/sources'])
        expect((await get(url)).json().data.length, url).toBeGreaterThan(0);
    });

    it('every write answers a documented status with a body that matches its schema', async () => {
      const base = '/api/v1/webhook-endpoints';
      expect(await check(base, base, 'post', { url: 'https://hooks.example.com/b', counties: ['broward'] })).toBe(201);
      expect(await check(base, base, 'post', { url: 'ftp://x' })).toBe(400);
      const id = (await get(base)).json().data.at(-1).id as string;
      expect(await check(`${base}/{id}`, `${base}/${id}`, 'patch', { status: 'disabled', types: ['certificate.redeemed'] })).toBe(200);
      expect(await check(`${base}/{id}`, `${base}/whe_unknown`, 'patch', { status: 'enabled' })).toBe(404);
      expect(await check(`${base}/{id}/rotate-secret`, `${base}/${id}/rotate-secret`, 'post')).toBe(200);
      expect(await check(`${base}/{id}`, `${base}/${id}`, 'delete')).toBe(200);
      expect(await check(`${base}/{id}`, `${base}/${id}`, 'delete')).toBe(404);
    });

    it('every saved-search write answers a documented status with a body that matches its schema', async () => {
      const base = '/api/v1/saved-searches';
      expect(await check(base, base, 'post', { name: 'Broward sold', params: { county: 'broward', status: 'sold' } })).toBe(201);
      expect(await check(base, base, 'post', { name: '', params: { sort: 'face_desc' } })).toBe(400);
      const id = (await get(base)).json().data.at(-1).id as string;
      expect(await check(`${base}/{id}`, `${base}/${id}`, 'patch', { name: 'Broward', params: { face_min: '100' } })).toBe(200);
      expect(await check(`${base}/{id}`, `${base}/ss_unknown`, 'patch', { name: 'x' })).toBe(404);
      expect(await check(`${base}/{id}`, `${base}/${id}`, 'delete')).toBe(200);
      expect(await check(`${base}/{id}`, `${base}/${id}`, 'delete')).toBe(404);
    });

    it('rejects a body with a leaked field: the row schemas are closed', async () => {
      const template = '/api/v1/holders/search';
      const body = (await get('/api/v1/holders/search')).json();
      body.data[0].updated_at = '2025-01-01T00:00:00.000Z';
      const validate = validators.get(`get ${template} 200 application/json`)!;
      expect(validate(body)).toBe(false);
    });
  });
});

/** A redeemed certificate as the API renders it: what a certificate.redeemed event carries. */
function redeemedRow(county_slug: string) {
  return mapCertificate(
    sampleCertificate({ county_slug, status: 'redeemed', redeemed: true, redeemed_date: '2025-03-03' }),
    'https://parcels.example.test/',
  );
}
