// @module-tag postgres
import { rollUp } from '../../../../helpers/rollups.ts';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../../indexer/load/bulk.ts';
import { buildApp } from '../../../../../services/api/app.ts';
import { TOOLS } from '../../../../../services/api/mcp/tools.ts';
import { buildCertificateSnapshots } from '../../../../../services/bulk/build-certificates.ts';
import { folderStorage } from '../../../../../services/bulk/folder-storage.ts';
import { CertificateSearchParams } from '../../../../../services/api/routes/certificates/params.ts';
import { enqueueFiles } from '../../../../../services/process/ingest-runner.ts';
import { migrate } from '../../../../../services/control/db/migrate.ts';
import { upsertSource } from '../../../../../services/control/ingest/sources.ts';
import { aliasName } from '../../../../../services/domain/datasets.ts';
import { openRuntime } from '../../../../../services/process/runtime.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../helpers/access.ts';
import { connectMcp, errorBody, texts } from '../../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../../helpers/sample-certificate.ts';

/**
 * Every tool against its REST route, through the SDK's client on a listening
 * server: for the same parameters, the same body (same rows, same order, same
 * pagination, facets and meta but the request id). Data comes in by the real
 * ingest path (a portal file: certificates, the sale summary, the source row, the
 * county's count) plus certificates bulk-indexed from the canonical schema.
 */

type Args = Record<string, unknown>;

const SOURCES: [string, number, string][] = [
  ['alachua', 2023, 'lienport'],
  ['alachua', 2024, 'lienport'],
  ['duval', 2024, 'certbid'],
  ['orange', 2023, 'taxgavel'],
  ['leon', 2022, 'lienport'],
];

/** Tool arguments as a REST query string: arrays comma-separated, like a client would write them. */
function withQuery(path: string, args: Args): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) qs.set(k, Array.isArray(v) ? v.join(',') : String(v));
  const text = qs.toString();
  return text ? `${path}?${text}` : path;
}

interface Case {
  tool: string;
  args: Args;
  /** The REST request for the same parameters. */
  url: string;
}

/** A tool whose arguments are its route's query parameters. */
const q = (tool: string, path: string, args: Args = {}): Case => ({ tool, args, url: withQuery(path, args) });

describe('MCP tools answer what their REST routes answer', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let base: string;
  let client: Client;
  /** The one place requests get their credentials. */
  let auth: Record<string, string> = {};
  let certificateId: string;

  const rest = async (path: string) => {
    const res = await fetch(new URL(path, base), { headers: auth });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    const file = fileURLToPath(new URL('../../../../../fixtures/files/lienport-csv/good.csv', import.meta.url));
    const [outcome] = await enqueueFiles(
      t.runtime,
      [{ dataset: 'certificates', file, vendor: 'lienport', county: 'miami-dade', taxYear: 2024 }],
      { wait: true },
    );
    expect(outcome?.status).toBe('succeeded');
    const writer = createBulkWriter(t.runtime.opensearch, { index: aliasName(t.config.INDEX_PREFIX, 'certificates'), refresh: true });
    for (let n = 0; n < 60; n++) {
      const record = sampleCertificate({ face_amount: n % 7 === 0 ? 500 : 100 + n }, n);
      await writer.add(record.id, record);
    }
    expect((await writer.flush()).failed).toBe(0);
    await rollUp(t.runtime.opensearch, t.config.INDEX_PREFIX);
    // One county's bulk files, for list_bulk_files to list.
    await buildCertificateSnapshots({ ...t.runtime, storage: folderStorage(t.config.BULK_DIR) }, { county: 'miami-dade' });
    // Source rows as `ingest --manifest` registers them: enough to page through.
    for (const [county, year, vendor] of SOURCES)
      await upsertSource(t.runtime.sql, t.runtime.registry, { countySlug: county, taxYear: year, vendor, sourceKind: 'cert_sale_portal' });
    auth = await apiKeyHeaders(t.runtime);
    app = await buildApp(t.runtime);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    client = await connectMcp(base, auth);
    const first = await rest('/api/v1/certificates/search?county=miami-dade&limit=1');
    certificateId = (first.body.data as { id: string }[])[0]!.id;
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t.teardown();
  });

  const cases = (): Case[] => [
    q('search_certificates', '/api/v1/certificates/search'),
    q('search_certificates', '/api/v1/certificates/search', { limit: 7, offset: 20 }),
    q('search_certificates', '/api/v1/certificates/search', { county: ['alachua', 'miami-dade'], sort: 'face_desc', limit: 50 }),
    q('search_certificates', '/api/v1/certificates/search', { sort: 'face_asc', face_min: 150, face_max: 600, offset: 5 }),
    q('search_certificates', '/api/v1/certificates/search', { query: 'smith' }),
    q('search_certificates', '/api/v1/certificates/search', {
      redeemed: false,
      tax_year: [2023, 2024],
      facets: ['county', 'status', 'tax_year', 'vendor', 'redeemed'],
    }),
    { tool: 'get_certificate', args: { id: certificateId }, url: `/api/v1/certificates/${certificateId}` },
    {
      tool: 'get_certificate',
      args: { id: certificateId, expand: 'parcel' },
      url: `/api/v1/certificates/${certificateId}?expand=parcel`,
    },
    q('search_certificates', '/api/v1/certificates/search', { sort: 'rate_desc', expand: ['parcel'], rate_max: 18, limit: 5 }),
    q('get_certificate_geo_grid', '/api/v1/certificates/geo-grid', { zoom: 6 }),
    q('get_certificate_geo_grid', '/api/v1/certificates/geo-grid', { zoom: 12, county: ['miami-dade'], bbox: '-80.5,25.5,-80.0,26.0' }),
    q('certificates_by_parcel', '/api/v1/certificates/by-parcel', { county: 'miami-dade', parcel_id: '01-3125-041-0010' }),
    q('certificate_counts', '/api/v1/certificates/counts'),
    q('certificate_counts', '/api/v1/certificates/counts', { county: 'alachua', tax_year: 2023 }),
    q('certificate_fields', '/api/v1/certificates/fields'),
    q('certificate_freshness', '/api/v1/certificates/freshness'),
    q('search_certificate_sales', '/api/v1/certificate-sales/search'),
    q('search_certificate_sales', '/api/v1/certificate-sales/search', { county: ['miami-dade'], tax_year: [2024], sort: 'year_newest' }),
    q('search_holders', '/api/v1/holders/search', { query: 'gulf' }),
    q('search_lands_available', '/api/v1/lands-available/search', { county: ['alachua'] }),
    q('list_counties', '/api/v1/counties'),
    { tool: 'get_county', args: { county: 'miami-dade' }, url: '/api/v1/counties/miami-dade' },
    q('list_sources', '/api/v1/sources'),
    q('list_sources', '/api/v1/sources', { county: 'miami-dade', active: true, limit: 5 }),
    q('list_bulk_files', '/api/v1/bulk/files', { dataset: 'certificates', kind: 'snapshot' }),
    // The per-certificate investor answers: the id in the path, the day in the query.
    {
      tool: 'get_redemption_quote',
      args: { id: certificateId, date: '2026-02-10' },
      url: `/api/v1/certificates/${certificateId}/redemption?date=2026-02-10`,
    },
    {
      tool: 'get_certificate_timeline',
      args: { id: certificateId, date: '2026-02-10' },
      url: `/api/v1/certificates/${certificateId}/timeline?date=2026-02-10`,
    },
    {
      tool: 'get_deed_estimate',
      args: { id: certificateId, date: '2027-04-01' },
      url: `/api/v1/certificates/${certificateId}/deed-estimate?date=2027-04-01`,
    },
    q('get_bid_rate_analytics', '/api/v1/analytics/bid-rates'),
    q('get_bid_rate_analytics', '/api/v1/analytics/bid-rates', {
      county: ['alachua', 'miami-dade'],
      tax_year: [2023, 2024],
      vendor: ['LIENPORT', 'tax_collector'],
    }),
    q('get_redemption_curve', '/api/v1/analytics/redemption-curve', { county: ['miami-dade'], as_of: '2026-11-22' }),
    q('get_expected_yield', '/api/v1/analytics/expected-yield', {
      county: ['miami-dade'],
      rates: [0.25, 8, 18],
      horizon_months: 36,
      target_yield: 8,
      as_of: '2026-11-22',
    }),
    // The ingested file's certificates carry their holder groups (computed at ingest).
    q('search_holder_groups', '/api/v1/analytics/holders', { county: ['miami-dade'], sort: 'name_asc', limit: 5 }),
    // The change feed: the events the ingest above recorded.
    q('list_events', '/api/v1/events'),
    q('list_events', '/api/v1/events', { type: ['certificates.loaded', 'certificate_sale.created'], county: ['miami-dade'], limit: 1 }),
  ];

  it('has a case for every tool but get_holder (no holders: see the errors), get_usage (each call changes it: access tests) and the saved-search and portfolio tools (saved-searches.test.ts, portfolio-reading.test.ts: each needs a saved search or portfolio of its client)', () => {
    const covered = new Set(cases().map((c) => c.tool));
    const tools = TOOLS.map((tool) => tool.name);
    const elsewhere = [
      'get_holder',
      'get_usage',
      'create_saved_search',
      'list_saved_searches',
      'get_saved_search',
      'update_saved_search',
      'delete_saved_search',
      'saved_search_matches',
      'list_portfolios',
      'list_portfolio_positions',
      'get_portfolio_summary',
    ];
    expect(tools.filter((name) => !covered.has(name))).toEqual(elsewhere.filter((name) => tools.includes(name)));
  });

  it('gives the REST body as structuredContent for the same parameters: same rows, same order', async () => {
    for (const c of cases()) {
      const expected = await rest(c.url);
      expect(expected.status, `${c.tool} ${JSON.stringify(c.args)}`).toBe(200);
      const result = await client.callTool({ name: c.tool, arguments: c.args });
      expect(result.isError, `${c.tool}: ${texts(result)[0]}`).toBeFalsy();
      const body = result.structuredContent as { meta: { request_id: string } };
      expect(body.meta.request_id).toMatch(/^req_/);
      expect(body, `${c.tool} ${JSON.stringify(c.args)}`).toEqual({
        ...expected.body,
        meta: { ...(expected.body.meta as object), request_id: body.meta.request_id },
      });
      expect(JSON.parse(texts(result)[1]!)).toEqual(body);
      // A comparison of two empty answers proves little: only the datasets not ingested here are empty.
      const data = (body as unknown as { data: unknown }).data;
      if (!['search_holders', 'search_lands_available'].includes(c.tool))
        expect(Array.isArray(data) ? data.length : 1, `${c.tool} ${JSON.stringify(c.args)}`).toBeGreaterThan(0);
    }
  });

  it('pages like REST and says so in the summary', async () => {
    const first = await client.callTool({ name: 'list_sources', arguments: { limit: 2, offset: 2 } });
    const { pagination } = first.structuredContent as { pagination: { total: number; has_more: boolean } };
    // The seeded rows and the ingested file's own.
    expect(pagination).toMatchObject({ total: SOURCES.length + 1, has_more: true });
    expect(texts(first)[0]).toBe(`Sources 3-4 of ${pagination.total}. More: call again with offset 4.`);
    const last = await client.callTool({ name: 'list_sources', arguments: { limit: 10, offset: pagination.total - 1 } });
    expect(texts(last)[0]).toBe(`Sources ${pagination.total}-${pagination.total} of ${pagination.total}.`);
    const beyond = await client.callTool({ name: 'list_sources', arguments: { offset: pagination.total } });
    expect(texts(beyond)[0]).toBe(`No sources at offset ${pagination.total}; the result has ${pagination.total} in all.`);
    const none = await client.callTool({ name: 'list_sources', arguments: { county: 'monroe' } });
    expect(texts(none)[0]).toBe('No sources match.');
    const empty = await client.callTool({ name: 'search_holders', arguments: {} });
    expect(texts(empty)[0]).toBe('No holders: this dataset is not ingested yet (meta.coverage.status not_yet_ingested).');
  });

  it('gives the REST errors as tool errors: not found, and parameter problems', async () => {
    const holder = await client.callTool({ name: 'get_holder', arguments: { id: 'hld_nobody' } });
    const restHolder = await rest('/api/v1/holders/hld_nobody');
    expect(restHolder.status).toBe(404);
    expect(holder.isError).toBe(true);
    expect(errorBody(holder).error).toEqual({ ...(restHolder.body.error as object), request_id: errorBody(holder).error.request_id });

    // The same problem, but a tool points at the list_counties tool where REST points at its route.
    const slug = await client.callTool({ name: 'search_certificates', arguments: { county: ['atlantis'] } });
    const restSlug = await rest('/api/v1/certificates/search?county=atlantis');
    expect(restSlug.status).toBe(400);
    const restIssue = 'unknown county slug "atlantis"; GET /api/v1/counties lists the 67 county slugs';
    expect((restSlug.body.error as { details: unknown }).details).toEqual({ issues: [{ parameter: 'county', message: restIssue }] });
    const toolIssue = 'unknown county slug "atlantis"; the list_counties tool lists the 67 county slugs';
    expect(errorBody(slug).error.details).toEqual({ issues: [{ parameter: 'county', message: toolIssue }] });
    expect(texts(slug)[0]).toBe(`Invalid arguments for search_certificates:\n- county: ${toolIssue}`);
    const county = await client.callTool({ name: 'get_county', arguments: { county: 'atlantis' } });
    expect(texts(county)[0]).toBe('not_found: no county has the slug "atlantis"; the list_counties tool lists all 67');

    const id = await client.callTool({ name: 'get_certificate', arguments: { id: 'cert_0000' } });
    expect(errorBody(id).error.code).toBe('not_found');

    // A quote for a day before the sale names date, as REST does.
    const early = await client.callTool({ name: 'get_redemption_quote', arguments: { id: certificateId, date: '2020-01-01' } });
    const restEarly = await rest(`/api/v1/certificates/${certificateId}/redemption?date=2020-01-01`);
    expect(restEarly.status).toBe(400);
    expect(early.isError).toBe(true);
    expect(errorBody(early).error.details).toEqual((restEarly.body.error as { details: unknown }).details);
    expect(errorBody(early).error.details?.issues?.map((i) => i.parameter)).toEqual(['date']);

    const range = await client.callTool({
      name: 'search_certificate_sales',
      arguments: { sale_after: '2025-01-01', sale_before: '2024-01-01', limit: 501 },
    });
    const restRange = await rest('/api/v1/certificate-sales/search?sale_after=2025-01-01&sale_before=2024-01-01&limit=501');
    expect(restRange.status).toBe(400);
    expect(errorBody(range).error.details).toEqual((restRange.body.error as { details: unknown }).details);
    expect(texts(range)[0]).toBe(
      'Invalid arguments for search_certificate_sales:\n- limit: must be an integer from 1 to 500\n- sale_after: must not be greater than sale_before (2024-01-01)',
    );
  });

  it('answers an engine that does not answer with a tool error (retry later), while SQLite tools keep answering', async () => {
    const down = await openRuntime({ ...t.config, OPENSEARCH_URL: 'http://127.0.0.1:9' });
    const downApp = await buildApp(down);
    const downBase = await downApp.listen({ host: '127.0.0.1', port: 0 });
    const downClient = await connectMcp(downBase, auth);
    try {
      const failed = await downClient.callTool({ name: 'search_certificate_sales', arguments: {} });
      expect(failed.isError).toBe(true);
      expect(texts(failed)[0]).toBe('internal_error: internal server error; retry with backoff');
      expect(errorBody(failed).error).toMatchObject({ code: 'internal_error', request_id: expect.stringMatching(/^req_/) });
      const counties = await downClient.callTool({ name: 'list_counties', arguments: {} });
      expect(counties.isError).toBeFalsy();
    } finally {
      await downClient.close();
      await downApp.close();
      await down.close();
    }
  });

  it('takes what REST takes: one value, a comma list or an array for a multi-value filter; numbers and booleans as text', async () => {
    const same: [string, Args, string][] = [
      // The two calls agents send that were once refused (one county as a string; a limit as
      // text), and REST's ?county=miami-dade&limit=3.
      ['search_certificates', { county: 'miami-dade', limit: 5 }, '/api/v1/certificates/search?county=miami-dade&limit=5'],
      ['search_certificates', { county: ['miami-dade'], limit: '3' }, '/api/v1/certificates/search?county=miami-dade&limit=3'],
      [
        'search_certificates',
        { county: 'alachua,miami-dade', tax_year: '2023,2024', redeemed: 'false', face_min: '150' },
        '/api/v1/certificates/search?county=alachua,miami-dade&tax_year=2023,2024&redeemed=false&face_min=150',
      ],
      [
        'search_certificates',
        { county: ['alachua,miami-dade'], facets: 'county,status', offset: '2' },
        '/api/v1/certificates/search?county=alachua&county=miami-dade&facets=county,status&offset=2',
      ],
      [
        'search_certificate_sales',
        { county: 'miami-dade', tax_year: 2024, limit: '5' },
        '/api/v1/certificate-sales/search?county=miami-dade&tax_year=2024&limit=5',
      ],
      ['list_sources', { active: 'true', limit: '2' }, '/api/v1/sources?active=true&limit=2'],
      // A county is one slug in every tool that takes one: an array of exactly one is that slug.
      [
        'certificates_by_parcel',
        { county: ['miami-dade'], parcel_id: '01-3125-041-0010', limit: '5' },
        '/api/v1/certificates/by-parcel?county=miami-dade&parcel_id=01-3125-041-0010&limit=5',
      ],
      ['certificate_counts', { county: ['alachua'], tax_year: '2023' }, '/api/v1/certificates/counts?county=alachua&tax_year=2023'],
      ['get_county', { county: ['miami-dade'] }, '/api/v1/counties/miami-dade'],
    ];
    for (const [tool, args, url] of same) {
      const expected = await rest(url);
      expect(expected.status, url).toBe(200);
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, `${tool} ${JSON.stringify(args)}: ${texts(result)[0]}`).toBeFalsy();
      const body = result.structuredContent as { meta: { request_id: string }; data: unknown };
      expect(body, `${tool} ${JSON.stringify(args)}`).toEqual({
        ...expected.body,
        meta: { ...(expected.body.meta as object), request_id: body.meta.request_id },
      });
      expect(Array.isArray(body.data) ? body.data.length : 1, url).toBeGreaterThan(0);
    }
  });

  it('refuses what REST refuses, by argument name, with the same problems', async () => {
    const cases: [string, Args, string][] = [
      ['search_certificate_sales', { limit: '5.5' }, '/api/v1/certificate-sales/search?limit=5.5'],
      ['search_certificate_sales', { limit: 'ten' }, '/api/v1/certificate-sales/search?limit=ten'],
      ['search_certificate_sales', { tax_year: [2023.5] }, '/api/v1/certificate-sales/search?tax_year=2023.5'],
      ['search_certificate_sales', { county: 'alachua,' }, '/api/v1/certificate-sales/search?county=alachua,'],
      ['list_sources', { active: 'yes' }, '/api/v1/sources?active=yes'],
      ['search_certificates', { facets: ['owner'] }, '/api/v1/certificates/search?facets=owner'],
      ['search_holders', { county: 'alachua', min_certificates: '-1' }, '/api/v1/holders/search?county=alachua&min_certificates=-1'],
      // Several values where one goes: "takes one county slug", on both surfaces.
      ['certificate_counts', { county: 'miami-dade,broward' }, '/api/v1/certificates/counts?county=miami-dade,broward'],
      ['certificate_counts', { county: ['miami-dade', 'broward'] }, '/api/v1/certificates/counts?county=miami-dade&county=broward'],
      [
        'certificates_by_parcel',
        { county: 'miami-dade,broward', parcel_id: '1' },
        '/api/v1/certificates/by-parcel?county=miami-dade,broward&parcel_id=1',
      ],
      ['list_sources', { county: ['alachua', 'duval'] }, '/api/v1/sources?county=alachua,duval'],
      // Every bad argument in the product's words (an unknown one beside them: below, as a
      // tool's list of accepted names leaves out the REST-only format).
      ['search_certificates', { limit: 'abc' }, '/api/v1/certificates/search?limit=abc'],
      ['search_certificates', { status: 'owned' }, '/api/v1/certificates/search?status=owned'],
      // Control characters, refused by name on both surfaces before any engine sees them.
      ['list_sources', { vendor: 'lien\u0000port', source_kind: '\u0000' }, '/api/v1/sources?vendor=lien%00port&source_kind=%00'],
      ['get_certificate', { id: 'cert_\u0000' }, '/api/v1/certificates/cert_%00'],
    ];
    for (const [tool, args, url] of cases) {
      const expected = await rest(url);
      expect(expected.status, url).toBe(400);
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(errorBody(result).error.details, `${tool} ${JSON.stringify(args)}`).toEqual(
        (expected.body.error as { details: unknown }).details,
      );
    }
    const counts = await client.callTool({ name: 'certificate_counts', arguments: { county: 'miami-dade,broward' } });
    expect(texts(counts)[0]).toBe(
      'Invalid arguments for certificate_counts:\n- county: takes one county slug, not several (given 2: miami-dade, broward)',
    );
    const words = await client.callTool({ name: 'search_certificates', arguments: { limit: 900, bogus: 1, status: 'owned' } });
    expect(texts(words)[0]).toBe(
      [
        'Invalid arguments for search_certificates:',
        `- bogus: unknown parameter; accepted: ${Object.keys(CertificateSearchParams.shape)
          .filter((k) => k !== 'format')
          .join(', ')}`,
        '- status: must be one of available, advertised, sold, redeemed, lands_available, tax_deed_applied, cancelled',
        '- limit: must be an integer from 1 to 500',
      ].join('\n'),
    );
    const control = await client.callTool({ name: 'list_sources', arguments: { vendor: 'lien\u0000port' } });
    expect(texts(control)[0]).toBe(
      'Invalid arguments for list_sources:\n- vendor: must not contain control characters (U+0000 at character 5)',
    );
    const none = await client.callTool({ name: 'certificates_by_parcel', arguments: { county: [], parcel_id: '1' } });
    expect(errorBody(none).error.details?.issues).toEqual([{ parameter: 'county', message: 'takes one county slug, given none' }]);
  });

  it('describes each tool with its REST twin, its arguments and its cost, without contradicting its schema', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const spec = TOOLS.find((t) => t.name === tool.name)!;
      expect(tool.description, tool.name).toContain(`Same as ${spec.rest}.`);
      const names = Object.keys(tool.inputSchema.properties ?? {});
      if (names.length === 0) expect(tool.description).toContain('Takes no arguments.');
      else expect(tool.description).toContain(`Arguments: ${names[0]}`);
      for (const name of names) expect(tool.description, `${tool.name} ${name}`).toMatch(new RegExp(`[:,] ${name}[ ,.]`));
      expect(tool.description).toMatch(spec.free ? /Free: a call costs no credit\.$/ : /Each call costs one credit/);
      const limit = (tool.inputSchema.properties?.limit as { default?: number } | undefined)?.default;
      if (limit !== undefined) expect(tool.description).toContain(`default ${limit})`);
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/GET \/api/);
    }
    const sources = tools.find((t) => t.name === 'list_sources')!;
    expect(sources.description).toContain('default 100');
    expect(sources.description).not.toContain('default 25');
  });
});
