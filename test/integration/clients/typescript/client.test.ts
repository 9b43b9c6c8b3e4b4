import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  isApiError,
  OPERATIONS,
  type OperationId,
  type OperationInput,
  type RetryEvent,
  type Taxcert,
  TaxcertApiError,
  TaxcertNetworkError,
} from '../../../../clients/typescript/src/index.ts';
import { buildApp } from '../../../../services/api/app.ts';
import { buildCertificateSnapshots } from '../../../../services/bulk/build-certificates.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { createClient as createAccount, setClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents } from '../../../../services/control/feed/events.ts';
import { fanOut } from '../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint } from '../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { mapCertificate } from '../../../../services/domain/certificate-row.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../helpers/access.ts';
import { type FaultProxy, startFaultProxy } from '../../../helpers/fault-proxy.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { fixturePath, loadEveryDataset } from '../../../helpers/every-dataset.ts';

/**
 * The package in clients/typescript against the real app on a real port (OpenSearch, Redis and
 * SQLite of the test stack): every read operation through its method, paging to the end, the
 * retries on a real 429 and on a real proxy's 503, 408 and dropped connection, typed errors, and
 * writes that a retry cannot apply twice.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const _fixture = (path: string) => join(ROOT, 'fixtures', path);
const run = promisify(execFile);

/** The GET operations: reads, each called once below. */
type ReadOperationId = { [K in OperationId]: (typeof OPERATIONS)[K]['method'] extends 'GET' ? K : never }[OperationId];

interface Sample {
  certificateId: string;
  parcelId: string;
  holderId: string;
  bulkFile: string;
  portfolioId: string;
  savedSearchId: string;
  endpointId: string;
  calendarToken: string;
}

/**
 * What each read is called with, from the data loaded in beforeAll. Typed by the generated
 * operations: a new read operation missing here, or a parameter the document does not take, fails tsc.
 */
const READS: { [K in ReadOperationId]: (s: Sample) => OperationInput<K> } = {
  downloadBulkFile: (s) => ({ path: { name: s.bulkFile } }),
  getBidRateAnalytics: () => ({ query: { county: ['broward'], tax_year: [2024] } }),
  getCalendarByAddress: (s) => ({ path: { token: s.calendarToken } }),
  getCertificate: (s) => ({ path: { id: s.certificateId } }),
  getCertificateCounts: () => ({ query: { county: 'broward', tax_year: 2024 } }),
  getCertificateFields: () => ({}),
  getCertificateFreshness: () => ({}),
  getCertificateGeoGrid: () => ({ query: { zoom: 8, county: ['broward'] } }),
  getCertificateTimeline: (s) => ({ path: { id: s.certificateId } }),
  getCertificatesByParcel: (s) => ({ query: { county: 'broward', parcel_id: s.parcelId } }),
  getCounty: () => ({ path: { county: 'broward' } }),
  getCountySources: () => ({ path: { county: 'broward' } }),
  getDeedEstimate: (s) => ({ path: { id: s.certificateId }, query: { date: '2027-04-01' } }),
  getExpectedYield: () => ({ query: { county: ['broward'], target_yield: 10 } }),
  getHealth: () => ({}),
  getHolder: (s) => ({ path: { id: s.holderId } }),
  getOpenApiDocument: () => ({}),
  getPortfolio: (s) => ({ path: { id: s.portfolioId } }),
  getPortfolioCalendar: (s) => ({ path: { id: s.portfolioId } }),
  getPortfolioSummary: (s) => ({ path: { id: s.portfolioId } }),
  getRedemptionCurve: () => ({ query: { county: ['broward'] } }),
  getRedemptionQuote: (s) => ({ path: { id: s.certificateId } }),
  getSavedSearch: (s) => ({ path: { id: s.savedSearchId } }),
  getUsage: () => ({}),
  getWebhookEndpoint: (s) => ({ path: { id: s.endpointId } }),
  listBulkFiles: () => ({ query: { county: 'broward' } }),
  listCounties: () => ({}),
  listEvents: () => ({ query: { county: ['broward'] } }),
  listPortfolioPositions: (s) => ({ path: { id: s.portfolioId } }),
  listPortfolios: () => ({}),
  listSavedSearchMatches: (s) => ({ path: { id: s.savedSearchId }, query: { limit: 3 } }),
  listSavedSearches: () => ({}),
  listSources: () => ({ query: { county: 'broward' } }),
  listWebhookDeliveries: (s) => ({ path: { id: s.endpointId } }),
  listWebhookEndpoints: () => ({}),
  searchCertificateSales: () => ({ query: { county: ['broward'] } }),
  searchCertificates: () => ({ query: { county: ['broward'], sort: 'face_desc', limit: 5 } }),
  searchHolderGroups: () => ({ query: { county: ['broward'] } }),
  searchHolders: () => ({ query: { query: 'gulf coast' } }),
  searchLandsAvailable: () => ({ query: { county: ['alachua'] } }),
};

describe('the TypeScript client against the live app', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let baseUrl: string;
  let key: string;
  let client: Taxcert;
  let proxy: FaultProxy;
  let bulkDir: string;
  const sample = {} as Sample;

  beforeAll(async () => {
    // A 3-second rate-limit window (tests only), so a client that waits out Retry-After is seen in seconds.
    bulkDir = mkdtempSync(join(tmpdir(), 'client-bulk-'));
    t = await openTestRuntime(import.meta.url, { RATE_LIMIT_WINDOW_MS: '3000', BULK_DIR: bulkDir });
    app = await buildApp(t.runtime);
    key = (await apiKeyHeaders(t.runtime)).authorization.slice('Bearer '.length);
    const clientId = Object.values(
      (await t.runtime.sql.get<Record<string, string>>("SELECT id FROM clients WHERE name = 'route tests enterprise'"))!,
    )[0]!;
    // The key's client has one webhook endpoint with one delivery waiting.
    const { endpoint } = await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId,
      url: 'https://hooks.example.com/in',
      types: null,
      counties: null,
    });
    sample.endpointId = endpoint.id;
    const redeemed = mapCertificate(
      sampleCertificate({ county_slug: 'broward', status: 'redeemed', redeemed: true, redeemed_date: '2025-03-03' }),
      'https://parcels.example.test/',
    );
    await appendEvents(t.runtime.sql, [
      { type: 'certificate.redeemed', countySlug: 'broward', data: { object: redeemed, previous: { status: 'sold' } } },
    ]);
    await fanOut(t.runtime.sql, 100);
    await loadEveryDataset(t.runtime, { file: fixturePath('demo/broward/2024.csv.gz'), county: 'broward', taxYear: 2024 });
    await buildCertificateSnapshots({ ...t.runtime, storage: folderStorage(t.config.BULK_DIR) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    proxy = await startFaultProxy(baseUrl);
    client = createClient({ baseUrl, apiKey: key });

    // The rest of the sample comes through the client itself.
    const first = (await client.searchCertificates({ query: { county: ['broward'], limit: 1 } })).data[0]!;
    sample.certificateId = first.id;
    sample.parcelId = first.parcel_id;
    sample.holderId = (await client.searchHolders({ query: { query: 'gulf coast', limit: 1 } })).data[0]!.id;
    sample.bulkFile = (await client.listBulkFiles({ query: { county: 'broward' } })).data[0]!.name;
    const portfolio = await client.createPortfolio({ body: { name: 'Broward book' } });
    sample.portfolioId = portfolio.data.id;
    await client.addPortfolioPositions({
      path: { id: portfolio.data.id },
      body: { positions: [{ certificate_id: first.id, acquired_amount: 100 }] },
    });
    sample.calendarToken = (await client.createPortfolioCalendarAddress({ path: { id: portfolio.data.id } })).data.token;
    sample.savedSearchId = (await client.createSavedSearch({ body: { name: 'Broward', params: { county: 'broward' } } })).data.id;
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.close();
    if (t) await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t?.teardown();
    rmSync(bulkDir, { recursive: true, force: true });
  });

  it('calls every read operation of the document through its method, each answered 2xx', async () => {
    const reads = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => OPERATIONS[id].method === 'GET') as ReadOperationId[];
    expect(reads.sort()).toEqual(Object.keys(READS).sort());
    const answered: Record<string, string> = {};
    for (const id of reads) {
      const input = READS[id](sample as Sample) as OperationInput<ReadOperationId>;
      const method = client[id] as (input: unknown, options?: { as: 'bytes' }) => Promise<unknown>;
      // A bulk file is bytes; a calendar arrives as text; every other read is JSON.
      const answer = id === 'downloadBulkFile' ? await method(input, { as: 'bytes' }) : await method(input);
      answered[id] = answer instanceof Uint8Array ? 'bytes' : typeof answer;
    }
    expect(Object.keys(answered)).toHaveLength(reads.length);
    expect(answered.downloadBulkFile).toBe('bytes');
    expect([answered.getCalendarByAddress, answered.getPortfolioCalendar]).toEqual(['string', 'string']);
    expect(answered.searchCertificates).toBe('object');
    const calendar = await client.getPortfolioCalendar({ path: { id: sample.portfolioId } });
    expect(calendar).toMatch(/^BEGIN:VCALENDAR/);
  });

  it('builds to JavaScript that plain Node runs, with no loader', async () => {
    const out = mkdtempSync(join(tmpdir(), 'client-dist-'));
    try {
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', join(ROOT, 'clients/typescript/tsconfig.json'), '--outDir', out]);
      const script = `const { createClient } = await import(${JSON.stringify(join(out, 'index.js'))});
        const c = createClient({ baseUrl: process.env.TAXCERT_BASE_URL });
        const counties = await c.listCounties();
        console.log(JSON.stringify([counties.data.length, (await c.getHealth()).status]));`;
      // The key from the environment, as the docs tell a customer.
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        env: { PATH: process.env.PATH, TAXCERT_BASE_URL: baseUrl, TAXCERT_API_KEY: key },
      });
      expect(JSON.parse(stdout)).toEqual([67, 'ok']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('walks every page of a county to its end: the total the API reports, no row twice', async () => {
    const { pagination } = await client.searchCertificates({ query: { county: ['broward'], limit: 1 } });
    expect(pagination.total).toBeGreaterThan(1000);
    const ids: string[] = [];
    for await (const row of client.all('searchCertificates', { query: { county: ['broward'], limit: 500 } })) {
      expect(row.county_slug).toBe('broward');
      ids.push(row.id);
    }
    expect(ids).toHaveLength(pagination.total);
    expect(new Set(ids).size).toBe(ids.length);

    // The change feed pages by cursor (next_after), two events a page.
    const feed = await client.listEvents({ query: { limit: 500 } });
    const events: string[] = [];
    for await (const event of client.all('listEvents', { query: { limit: 2 } })) events.push(event.id);
    expect(feed.pagination.total).toBeGreaterThan(2);
    expect(events).toEqual(feed.data.map((e) => e.id));
  });

  it('answers CSV as text when asked', async () => {
    const csv = await client.searchCertificates({ query: { county: ['broward'], format: 'csv', limit: 2 } }, { as: 'text' });
    const lines = csv.trim().split('\n');
    expect(lines[0]).toMatch(/^id,certificate_number,/);
    expect(lines).toHaveLength(3);
  });

  it('waits out the Retry-After of a real 429 and then gets through', async () => {
    const developer = async (rpm: number) => {
      const account = await createAccount(t.runtime.sql, { name: `client retry developer ${rpm}`, plan: 'developer' });
      await setClient(t.runtime.sql, account.id, { rpm });
      const made = await createKey(t.runtime.sql, {
        clientId: account.id,
        env: 'live',
        prefix: t.config.KEY_PREFIX,
        secret: t.config.KEY_HASH_SECRET,
      });
      return made.raw;
    };
    const retries: RetryEvent[] = [];
    const limited = createClient({ baseUrl, apiKey: await developer(2), onRetry: (r) => retries.push(r) });
    await limited.listCounties();
    await limited.listCounties();
    expect(retries).toEqual([]);
    const started = Date.now();
    const third = await limited.listCounties();
    const took = Date.now() - started;
    expect(third.data).toHaveLength(67);
    expect(retries).toHaveLength(1);
    const [retry] = retries;
    expect(retry).toMatchObject({ operationId: 'listCounties', attempt: 1, status: 429 });
    expect(retry!.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(retry!.delayMs).toBeGreaterThanOrEqual(retry!.retryAfterMs!);
    expect(took).toBeGreaterThanOrEqual(retry!.retryAfterMs!);

    // With retries off a 429 is the typed error, its Retry-After on it.
    const once = createClient({ baseUrl, apiKey: await developer(1), maxRetries: 0 });
    await once.listCounties();
    const err = await once.listCounties().catch((e: unknown) => e);
    expect(isApiError(err, 'rate_limited')).toBe(true);
    expect((err as TaxcertApiError).status).toBe(429);
    expect((err as TaxcertApiError).retryAfterMs).toBeGreaterThanOrEqual(1000);
  });

  it('retries a read answered 503 or 408 by a proxy, or cut off, and gets the answer', async () => {
    const retries: RetryEvent[] = [];
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: key, baseDelayMs: 50, onRetry: (r) => retries.push(r) });
    proxy.failNext('GET /api/v1/counties/broward', { kind: 'refuse', status: 503 });
    proxy.failNext('GET /api/v1/counties/broward', { kind: 'refuse', status: 408 });
    proxy.failNext('GET /api/v1/counties/broward', { kind: 'drop' });
    const county = await viaProxy.getCounty({ path: { county: 'broward' } });
    expect(county.data.countyName).toBe('Broward');
    const seen = proxy.seen.filter((s) => s.url === '/api/v1/counties/broward').map((s) => s.status);
    expect(seen).toEqual([503, 408, 0, 200]);
    expect(retries.map((r) => r.status)).toEqual([503, 408, null]);

    // Past maxRetries the last failure is thrown, typed, without the API's envelope.
    const twice = createClient({ baseUrl: proxy.url, apiKey: key, maxRetries: 1, baseDelayMs: 10 });
    proxy.failNext('GET /api/v1/counties/leon', { kind: 'refuse', status: 503 });
    proxy.failNext('GET /api/v1/counties/leon', { kind: 'refuse', status: 502 });
    const err = await twice.getCounty({ path: { county: 'leon' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaxcertApiError);
    expect([(err as TaxcertApiError).status, (err as TaxcertApiError).code]).toEqual([502, 'http_error']);
  });

  it('gives up an attempt past its timeout and tries again', async () => {
    const retries: RetryEvent[] = [];
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: key, timeoutMs: 1000, baseDelayMs: 10, onRetry: (r) => retries.push(r) });
    proxy.failNext('GET /api/v1/counties/leon', { kind: 'stall' });
    expect((await viaProxy.getCounty({ path: { county: 'leon' } })).data.countyName).toBe('Leon');
    expect(retries.map((r) => r.status)).toEqual([null]);
    const stalled = createClient({ baseUrl: proxy.url, apiKey: key, timeoutMs: 200, maxRetries: 0 });
    proxy.failNext('GET /api/v1/counties/leon', { kind: 'stall' });
    const timedOut = await stalled.getCounty({ path: { county: 'leon' } }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TaxcertNetworkError);
    expect((timedOut as TaxcertNetworkError).timedOut).toBe(true);
  });

  it('raises a 401 as the typed error carrying the answer request id', async () => {
    const wrong = createClient({ baseUrl: proxy.url, apiKey: 'tc_live_not_a_key' });
    const err = await wrong.listCounties().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaxcertApiError);
    const apiError = err as TaxcertApiError;
    expect([apiError.status, apiError.code]).toEqual([401, 'unauthorized']);
    const answered = proxy.seen.filter((s) => s.url === '/api/v1/counties' && s.status === 401);
    // A 401 is not retried.
    expect(answered).toHaveLength(1);
    expect(apiError.request_id).toMatch(/^req_/);
    expect(apiError.request_id).toBe(answered[0]!.requestId);
    // An unknown id is the typed not_found, told apart by code.
    const missing = await client.getCertificate({ path: { id: 'cert_00000000000000000000' } }).catch((e: unknown) => e);
    expect(isApiError(missing, 'not_found')).toBe(true);
  });

  it('sends writes with an Idempotency-Key kept across retries, so a create whose answer was lost is made once', async () => {
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: key, baseDelayMs: 50 });
    const name = 'Created once, answered after a retry';
    // The app creates the saved search, the proxy loses its answer; the client asks again.
    proxy.failNext('POST /api/v1/saved-searches', { kind: 'lose', status: 503 });
    const created = await viaProxy.createSavedSearch({ body: { name, params: { county: 'broward', status: ['sold'] } } });
    const posts = proxy.seen.filter((s) => s.method === 'POST' && s.url === '/api/v1/saved-searches');
    expect(posts.map((p) => p.status)).toEqual([503, 201]);
    expect(posts[0]!.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
    const listed = (await client.listSavedSearches({ query: { limit: 100 } })).data.filter((s) => s.name === name);
    expect(listed.map((s) => s.id)).toEqual([created.data.id]);

    // A caller's own key is sent as given: the same key again replays, changing nothing.
    const again = await client.createPortfolio({ body: { name: 'Keyed book' } }, { idempotencyKey: 'book-1' });
    const replay = await client.createPortfolio({ body: { name: 'Keyed book' } }, { idempotencyKey: 'book-1' });
    expect(replay.data.id).toBe(again.data.id);
    const books = (await client.listPortfolios()).data.filter((b) => b.name === 'Keyed book');
    expect(books).toHaveLength(1);
    // The same key on another request is the typed conflict, never retried.
    const conflict = await client.createPortfolio({ body: { name: 'Other book' } }, { idempotencyKey: 'book-1' }).catch((e: unknown) => e);
    expect(isApiError(conflict, 'idempotency_conflict')).toBe(true);

    // PATCH and DELETE go through the same rules.
    proxy.failNext('DELETE /api/v1/saved-searches/', { kind: 'lose', status: 500 });
    const deleted = await viaProxy.deleteSavedSearch({ path: { id: created.data.id } });
    expect(deleted.data.deleted).toBe(true);
    const deletes = proxy.seen.filter((s) => s.method === 'DELETE');
    expect(deletes.map((d) => d.status)).toEqual([500, 200]);
    expect(deletes[1]!.idempotencyKey).toBe(deletes[0]!.idempotencyKey);
  });
});
