import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { fixturePath, loadEveryDataset } from '../../../../helpers/every-dataset.ts';
import { appendEvents } from '../../../../../services/control/feed/events.ts';
import { mapCertificate } from '../../../../../services/domain/certificate-row.ts';
import { sampleCertificate } from '../../../../helpers/sample-certificate.ts';
import { fanOut } from '../../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint } from '../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../services/control/feed/webhook-secrets.ts';
import { apiKeyHeaders } from '../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';

/**
 * A customer's typed client, built the way the docs tell them: openapi-typescript turns the served
 * document into types, the client below calls every read operation and a saved search's writes
 * through openapi-fetch, the project's tsc type-checks it against those types, and then it runs
 * against the app on a real port. A document that drifts from the routes fails here: a call the
 * types refuse fails tsc, an answer the types promise but the route does not give fails the run.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const _fixture = (path: string) => join(ROOT, 'fixtures', path);
const run = promisify(execFile);

/**
 * The customer's code. Types come only from the generated schema.ts; a line marked
 * @ts-expect-error must stay an error (the document must keep refusing it).
 */
const CLIENT = String.raw`
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.ts';

type Certificate = components['schemas']['Certificate'];
type ApiError = components['schemas']['Error'];

function must<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new Error(answer.response.status + ' ' + JSON.stringify(answer.error));
  return answer.data;
}

export async function readEverything(baseUrl: string, apiKey: string) {
  // Lists answer JSON or CSV; the second type argument picks JSON for data's type.
  const open = createClient<paths, 'application/json'>({ baseUrl });
  const api = createClient<paths, 'application/json'>({ baseUrl, headers: { Authorization: 'Bearer ' + apiKey } });

  const health = must(await open.GET('/healthz'));
  const document = must(await open.GET('/api/v1/openapi.json'));

  const search = must(
    await api.GET('/api/v1/certificates/search', {
      params: { query: { county: ['broward'], status: ['sold', 'redeemed'], sort: 'face_desc', facets: ['status'], limit: 3 } },
    }),
  );
  const first: Certificate = search.data[0]!;
  const statusCounts = Object.fromEntries((search.facets?.status ?? []).map((b) => [String(b.value), b.count]));
  const one = must(await api.GET('/api/v1/certificates/{id}', { params: { path: { id: first.id } } }));
  const parcel = must(
    await api.GET('/api/v1/certificates/by-parcel', { params: { query: { county: first.county_slug, parcel_id: first.parcel_id } } }),
  );
  const counts = must(await api.GET('/api/v1/certificates/counts', { params: { query: { county: 'broward', tax_year: 2024 } } }));
  const fields = must(await api.GET('/api/v1/certificates/fields'));
  const freshness = must(await api.GET('/api/v1/certificates/freshness'));
  const sales = must(await api.GET('/api/v1/certificate-sales/search', { params: { query: { county: ['broward'] } } }));
  const holders = must(await api.GET('/api/v1/holders/search', { params: { query: { query: 'gulf coast', limit: 5 } } }));
  const holder = must(await api.GET('/api/v1/holders/{id}', { params: { path: { id: holders.data[0]!.id } } }));
  const lands = must(await api.GET('/api/v1/lands-available/search', { params: { query: { county: ['alachua'], sort: 'opening_bid_desc' } } }));
  const counties = must(await api.GET('/api/v1/counties'));
  const county = must(await api.GET('/api/v1/counties/{county}', { params: { path: { county: 'broward' } } }));
  const sources = must(await api.GET('/api/v1/sources', { params: { query: { active: true } } }));
  const countySources = must(await api.GET('/api/v1/sources/{county}', { params: { path: { county: 'broward' } } }));
  const usage = must(await api.GET('/api/v1/account/usage'));
  const bidRates = must(await api.GET('/api/v1/analytics/bid-rates', { params: { query: { county: ['broward'], tax_year: [2024] } } }));
  const webhookEndpoints = must(await api.GET('/api/v1/webhook-endpoints'));
  const deliveries = must(
    await api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id: webhookEndpoints.data[0]!.id }, query: { status: 'pending', limit: 5 } } }),
  );
  const csv: string = must(
    await api.GET('/api/v1/certificates/search', { params: { query: { county: ['broward'], format: 'csv', limit: 2 } }, parseAs: 'text' }),
  );

  // The change feed: each event type carries its own object, told apart by type.
  const feed = must(await api.GET('/api/v1/events', { params: { query: { type: ['certificates.loaded', 'certificate_sale.created'], county: ['broward'] } } }));
  const loaded = feed.data.flatMap((e) => (e.type === 'certificates.loaded' ? [e.data.object.count] : []));
  const saleYears = feed.data.flatMap((e) => (e.type === 'certificate_sale.created' ? [e.data.object.tax_year] : []));
  const unknownCursor = await api.GET('/api/v1/events', { params: { query: { after: 'evt_999999' } } });

  // A saved search, written and read through the generated types: params as the search takes them,
  // answered as it stores them; a retry under its Idempotency-Key replays the creation.
  const savedBody = { name: 'Broward, sold', params: { county: 'broward', status: ['sold' as const], face_min: '100' } };
  const idempotent = { header: { 'idempotency-key': 'saved-search-1' } };
  const saved = must(await api.POST('/api/v1/saved-searches', { params: idempotent, body: savedBody }));
  const savedRetry = must(await api.POST('/api/v1/saved-searches', { params: idempotent, body: savedBody }));
  const savedCounty: string[] | undefined = saved.data.params.county;
  const savedPath = { params: { path: { id: saved.data.id } } };
  const renamed = must(await api.PATCH('/api/v1/saved-searches/{id}', { ...savedPath, body: { name: 'Broward, sold, over $100' } }));
  const savedOne = must(await api.GET('/api/v1/saved-searches/{id}', savedPath));
  const savedList = must(await api.GET('/api/v1/saved-searches'));
  const savedMatches = must(
    await api.GET('/api/v1/saved-searches/{id}/matches', { params: { path: { id: saved.data.id }, query: { sort: 'face_desc', limit: 3 } } }),
  );
  const savedGone = must(await api.DELETE('/api/v1/saved-searches/{id}', savedPath));
  const savedAfter = await api.GET('/api/v1/saved-searches/{id}', savedPath);

  // A portfolio and its positions: each line of the report told apart by its status.
  const book = must(await api.POST('/api/v1/portfolios', { body: { name: 'Broward book' } }));
  const bookPath = { params: { path: { id: book.data.id } } };
  const added = must(
    await api.POST('/api/v1/portfolios/{id}/positions', {
      ...bookPath,
      body: { positions: [{ certificate_id: search.data[0]!.id, acquired_amount: 99.5 }, { county: 'atlantis', certificate_number: '1', tax_year: 2024 }] },
    }),
  );
  const lines = added.data.lines.map((l) => (l.status === 'created' ? 'created ' + l.position.resolved : 'rejected ' + l.error.code));
  const firstPosition = added.data.lines[0]!;
  const removed =
    firstPosition.status === 'created'
      ? must(await api.DELETE('/api/v1/portfolios/{id}/positions/{position_id}', { params: { path: { id: book.data.id, position_id: firstPosition.position.id } } })).data.deleted
      : false;
  const bookRenamed = must(await api.PATCH('/api/v1/portfolios/{id}', { ...bookPath, body: { name: 'Broward', follow_holder_group: null } }));
  const books = must(await api.GET('/api/v1/portfolios'));
  const bookGone = must(await api.DELETE('/api/v1/portfolios/{id}', bookPath));

  const missing = await api.GET('/api/v1/certificates/{id}', { params: { path: { id: 'cert_00000000000000000000' } } });
  const notFound: ApiError | undefined = missing.error;
  const keyless = await open.GET('/api/v1/counties');
  const unauthorized: ApiError | undefined = keyless.error;

  return {
    health: health.status,
    openapi: document.openapi,
    search: { ids: search.data.map((c) => c.id), total: search.pagination.total, statusCounts },
    one: one.data.id,
    parcel: parcel.data.map((c) => c.parcel_id),
    counts: counts.data.counts.reduce((sum, b) => sum + b.count, 0),
    fields: fields.data.fields.map((f) => f.name),
    freshness: freshness.data.certificate_count,
    sales: sales.data.map((s) => s.county_slug + ' ' + s.tax_year + ' ' + s.status),
    holders: holders.pagination.total,
    holder: holder.data.name,
    lands: lands.data.map((l) => l.opening_bid),
    counties: counties.data.length,
    county: county.data.countyName,
    sources: sources.data.map((s) => s.countySlug),
    countySources: countySources.data.map((s) => s.taxYear),
    usage: usage.data.plan,
    bidRates: [bidRates.data.certificates, sales.data[0]?.certificates_sold, bidRates.data.histogram.reduce((n, h) => n + h.certificates, 0)],
    events: { loaded, saleYears, next: feed.pagination.next_after, unknownCursor: [unknownCursor.response.status, unknownCursor.error?.error.code] },
    webhooks: [webhookEndpoints.data.map((e) => e.url), deliveries.data.map((d) => d.event_type + ' ' + d.status + ' ' + d.attempt_log.length)],
    savedSearch: {
      created: [saved.data.name, savedCounty, saved.data.params.status, saved.data.params.face_min],
      replayed: savedRetry.data.id === saved.data.id,
      renamed: renamed.data.name,
      one: savedOne.data.name,
      listed: savedList.data.map((s) => s.id).includes(saved.data.id),
      matches: savedMatches.data.map((c) => c.id),
      deleted: [savedGone.data.id === saved.data.id, savedGone.data.deleted],
      after: [savedAfter.response.status, savedAfter.error?.error.code],
    },
    portfolio: {
      lines,
      removed,
      renamed: bookRenamed.data.name,
      listed: books.data.map((b) => b.id).includes(book.data.id),
      deleted: bookGone.data.deleted,
    },
    csvHeader: csv.split('\n')[0],
    notFound: [missing.response.status, notFound?.error.code],
    unauthorized: [keyless.response.status, unauthorized?.error.code],
  };
}

/** Never called: each call must stay refused by the generated types. */
export async function refused(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  // @ts-expect-error sort takes only the documented values
  await api.GET('/api/v1/certificates/search', { params: { query: { sort: 'cheapest_first' } } });
  // @ts-expect-error no such operation
  await api.GET('/api/v1/certificates/everything');
  // @ts-expect-error a saved search's params are the search's filters, each of its type
  await api.POST('/api/v1/saved-searches', { body: { name: 'x', params: { face_min: true } } });
  // @ts-expect-error a position's amount is dollars as a number
  await api.POST('/api/v1/portfolios/{id}/positions', { params: { path: { id: 'pf_x' } }, body: { positions: [{ certificate_id: 'cert_x', acquired_amount: '12' }] } });
  // @ts-expect-error a certificate has no field the row schema lacks
  const leaked: Certificate = { ...({} as Certificate), secret_note: 'x' };
  return leaked;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  },
  files: ['client.ts'],
};

describe('a typed client generated from the served document', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let baseUrl: string;
  let dir: string;
  let key: string;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    app = await buildApp(t.runtime);
    key = (await apiKeyHeaders(t.runtime)).authorization.slice('Bearer '.length);
    // The key's client has one webhook endpoint, with one event waiting for its first attempt.
    const clientId = Object.values(
      (await t.runtime.sql.get<Record<string, string>>("SELECT id FROM clients WHERE name = 'route tests enterprise'"))!,
    )[0]!;
    await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId,
      url: 'https://hooks.example.com/in',
      types: null,
      counties: null,
    });
    await appendEvents(t.runtime.sql, [
      { type: 'certificate.redeemed', countySlug: 'broward', data: { object: redeemedRow('broward'), previous: { status: 'sold' } } },
    ]);
    await fanOut(t.runtime.sql, 100);
    await loadEveryDataset(t.runtime, { file: fixturePath('demo/broward/2024.csv.gz'), county: 'broward', taxYear: 2024 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Outside the clone, so nothing is left in it; node_modules is linked so that both tsc
    // and the test's import resolve openapi-fetch as a customer's project would.
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks against the generated types and reads every operation through openapi-fetch', async () => {
    const served = await fetch(`${baseUrl}/api/v1/openapi.json`);
    expect(served.status).toBe(200);
    const types = astToString(await openapiTS((await served.json()) as never));
    // Operation names and named schemas are what a customer imports.
    expect(types).toMatch(/searchCertificates: \{/);
    expect(types).toMatch(/Certificate: \{/);
    writeFileSync(join(dir, 'schema.ts'), types);
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));

    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(checked, 'tsc found errors in the generated client').toBe('');

    const client = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as {
      readEverything(baseUrl: string, apiKey: string): Promise<Record<string, unknown>>;
    };
    const read = await client.readEverything(baseUrl, key);
    const search = read.search as { ids: string[]; total: number; statusCounts: Record<string, number> };
    expect(read.health).toBe('ok');
    expect(read.openapi).toMatch(/^3\.1\./);
    expect(search.ids).toHaveLength(3);
    // A facet counts with every filter but its own: the two statuses asked for add up to the total.
    expect(search.statusCounts.sold! + search.statusCounts.redeemed!).toBe(search.total);
    expect(read.one).toBe(search.ids[0]);
    expect((read.parcel as string[]).length).toBeGreaterThan(0);
    expect(read.counts).toBe(read.freshness);
    expect(read.fields).toContain('face_amount');
    expect(read.sales).toEqual(['broward 2024 completed']);
    expect(read.holder).toBe('Gulf Coast Lien Fund II, LLC');
    expect(read.lands).toEqual([3456.78, 0]);
    expect(read.counties).toBe(67);
    expect(read.county).toBe('Broward');
    expect(read.sources).toContain('broward');
    expect(read.countySources).toEqual([2024]);
    expect(read.usage).toBe('enterprise');
    // The demo file's sale: every certificate sold to a bidder counted once, as its sale row's certificates_sold.
    const [analysed, sold, inHistogram] = read.bidRates as number[];
    expect(analysed).toBeGreaterThan(0);
    expect([sold, inHistogram]).toEqual([analysed, analysed]);
    expect(read.events).toEqual({
      loaded: [read.freshness],
      saleYears: [2024],
      next: expect.stringMatching(/^evt_\d+$/),
      unknownCursor: [400, 'bad_request'],
    });
    expect(read.webhooks).toEqual([['https://hooks.example.com/in'], ['certificate.redeemed pending 0']]);
    const searched = (await (
      await fetch(`${baseUrl}/api/v1/certificates/search?county=broward&status=sold&face_min=100&sort=face_desc&limit=3`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { data: { id: string }[] };
    expect(searched.data.length).toBeGreaterThan(0);
    expect(read.savedSearch).toEqual({
      created: ['Broward, sold', ['broward'], ['sold'], 100],
      replayed: true,
      renamed: 'Broward, sold, over $100',
      one: 'Broward, sold, over $100',
      listed: true,
      matches: searched.data.map((c) => c.id),
      deleted: [true, true],
      after: [404, 'not_found'],
    });
    expect(read.portfolio).toEqual({
      lines: ['created true', 'rejected unknown_county'],
      removed: true,
      renamed: 'Broward',
      listed: true,
      deleted: true,
    });
    expect(read.csvHeader).toMatch(/^id,certificate_number,/);
    expect(read.notFound).toEqual([404, 'not_found']);
    expect(read.unauthorized).toEqual([401, 'unauthorized']);
  });
});

/** A redeemed certificate as the API renders it: what a certificate.redeemed event carries. */
function redeemedRow(county_slug: string) {
  return mapCertificate(
    sampleCertificate({ county_slug, status: 'redeemed', redeemed: true, redeemed_date: '2025-03-03' }),
    'https://parcels.example.test/',
  );
}
