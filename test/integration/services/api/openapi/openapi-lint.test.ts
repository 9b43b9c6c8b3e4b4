import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { CertificateSearchFilters } from '../../../../../services/api/routes/certificates/params.ts';
import { CertificateRow } from '../../../../../services/api/routes/certificates/row.ts';
import { openRuntime, type Runtime } from '../../../../../services/process/runtime.ts';
import { type TestContext, testContext } from '../../../../helpers/context.ts';

/**
 * The served OpenAPI document, checked by tools no one here wrote: swagger-parser validates it
 * against the OpenAPI 3.1 schema, and Spectral's own spectral:oas ruleset (.spectral.yaml) finds no
 * error and no warning, examples against their schemas included. Then our own rules, which no
 * generic linter knows: every answer documented, with its headers and shapes named, so a generated
 * client knows every status that can come back.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const run = promisify(execFile);

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { $ref?: string }; example?: unknown }>;
}
interface Operation {
  operationId?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema; example?: unknown }> };
  responses: Record<string, Response>;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema & { anyOf?: JsonSchema[] }>;
  additionalProperties?: unknown;
}
interface Doc {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit'];

describe('the served OpenAPI document', () => {
  let ctx: TestContext;
  let runtime: Runtime;
  let app: FastifyInstance;
  let doc: Doc;
  let dir: string;

  beforeAll(async () => {
    ctx = testContext(import.meta.url);
    runtime = await openRuntime(ctx.config);
    app = await buildApp(runtime);
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    ctx?.cleanupFiles();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  const v1 = () => operations().filter((o) => o.path.startsWith('/api/v1/') && o.path !== '/api/v1/openapi.json');

  it('passes swagger-parser validation', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it("has no error and no warning under Spectral's spectral:oas ruleset", async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const spectral = join(ROOT, 'node_modules/.bin/spectral');
    // --fail-severity=hint: any finding at all fails the run; the JSON list says which.
    const result = await run(spectral, ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'], {
      cwd: ROOT,
    }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
    const findings = JSON.parse(result.stdout || '[]') as { code: string; message: string; path: string[] }[];
    expect(
      findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`),
      result.stderr,
    ).toEqual([]);
  });

  it('gives every operation a lowerCamelCase operationId, a description and tags defined at the top with descriptions', () => {
    const defined = new Map(doc.tags.map((t) => [t.name, t.description]));
    for (const tag of defined.values()) expect(tag).toBeTruthy();
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations()) {
      expect(op.operationId, path).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)*$/);
      expect(op.description, path).toBeTruthy();
      for (const tag of op.tags ?? []) expect(defined.has(tag), `${path}: tag ${tag}`).toBe(true);
      expect(op.tags?.length, path).toBeGreaterThan(0);
    }
  });

  it('documents every answer of every /api/v1 operation, with the error envelope and the rate-limit headers', () => {
    for (const { path, method, op } of v1()) {
      const statuses = Object.keys(op.responses);
      // A write (docs/writes.md) answers 201 when it creates, and may meet an Idempotency-Key
      // conflict (409), a body over 64 KiB (413) or one that is not JSON (415).
      const write = method !== 'get';
      // Two POSTs answer 200: a secret's rotation changes a resource, and adding positions answers a
      // report of its lines, 200 whatever became of each (docs/portfolios.md).
      const success = write && method === 'post' && !path.endsWith('/rotate-secret') && !path.endsWith('/positions') ? '201' : '200';
      const free = op.operationId === 'getUsage';
      const byIdOrSlug = (op.parameters ?? []).some((p) => p.in === 'path');
      // A feed paged by a cursor that can expire (events older than EVENTS_RETENTION_DAYS are
      // pruned) answers 410 cursor_expired.
      const byCursor = (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'after');
      // A bulk file download resumes (206), revalidates (304) and refuses a range past the end (416).
      const download = op.operationId === 'downloadBulkFile';
      const expected = [
        success,
        ...(download ? ['206', '304'] : []),
        '400',
        '401',
        ...(free ? [] : ['402']),
        '403',
        ...(byIdOrSlug ? ['404'] : []),
        ...(download ? ['416'] : []),
        ...(byCursor ? ['410'] : []),
        ...(write ? ['409', '413', '415'] : []),
        '429',
        '500',
      ];
      expect(statuses, path).toEqual(expected);
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        // A 401 is answered before the key, and so the plan's window, is known.
        if (status !== '401') expect(headers, `${path} ${status}`).toEqual(expect.arrayContaining(RATE_HEADERS));
        if (status === '429') expect(headers, path).toContain('Retry-After');
        if (status !== success && !(download && (status === '206' || status === '304')))
          expect(response.content?.['application/json']?.schema?.$ref, `${path} ${status}`).toBe('#/components/schemas/Error');
      }
      if (write)
        expect(
          op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
          `${path} ${method}`,
        ).toBe(true);
      // A write that takes a body shows its schema and an example of it (Spectral checks the one against the other).
      if (op.requestBody) {
        const json = op.requestBody.content['application/json'];
        expect(json?.schema?.type, `${path} ${method} body`).toBe('object');
        expect(json?.example, `${path} ${method} body example`).toBeDefined();
      }
      const ok = op.responses[success]!;
      // A calendar answers iCalendar only; every other operation answers JSON.
      if (ok.content?.['text/calendar']) {
        expect(Object.keys(ok.content), path).toEqual(['text/calendar']);
        expect(ok.content['text/calendar'].example, path).toMatch(/^BEGIN:VCALENDAR\r\n/);
        continue;
      }
      // A bulk file is the file's own bytes.
      if (download) {
        expect(Object.keys(ok.content ?? {}), path).toEqual(['application/octet-stream']);
        continue;
      }
      expect(ok.content?.['application/json']?.schema?.$ref, path).toMatch(/^#\/components\/schemas\//);
      expect(ok.content?.['application/json']?.example, `${path}: 200 example`).toBeDefined();
      // A list answers CSV too: its format parameter says so (by-id's format offers geojson alone;
      // the bulk manifest's format filters files by their format, the manifest itself is JSON only).
      const lists =
        (op.parameters ?? []).some((p) => p.name === 'format' && (p as { schema?: { enum?: string[] } }).schema?.enum?.includes('csv')) &&
        op.operationId !== 'listBulkFiles';
      expect(Object.keys(ok.content ?? {}).includes('text/csv'), `${path}: text/csv`).toBe(lists);
      if (lists) expect(ok.content?.['text/csv']?.example, path).toEqual(expect.stringMatching(/^id,/));
      expect(op.security, `${path} needs a key`).toBeUndefined();
    }
  });

  it('has an operationId, a body with its example, the write statuses and an Idempotency-Key on every write of saved searches, webhook endpoints and portfolios', () => {
    const writes = v1().filter(({ path, method }) => /\/(saved-searches|webhook-endpoints|portfolios)/.test(path) && method !== 'get');
    expect(writes.map(({ op }) => op.operationId).sort()).toEqual(
      [
        'createPortfolio',
        'createPortfolioCalendarAddress',
        'deletePortfolioCalendarAddress',
        'updatePortfolio',
        'deletePortfolio',
        'addPortfolioPositions',
        'deletePortfolioPosition',
        'createSavedSearch',
        'updateSavedSearch',
        'deleteSavedSearch',
        'createWebhookEndpoint',
        'updateWebhookEndpoint',
        'deleteWebhookEndpoint',
        'rotateWebhookEndpointSecret',
      ].sort(),
    );
    for (const { path, method, op } of writes) {
      const statuses = Object.keys(op.responses);
      const byId = path.includes('{id}');
      for (const status of ['400', '401', '402', '403', ...(byId ? ['404'] : []), '409', '413', '415', '429', '500'])
        expect(statuses, `${method} ${path}`).toContain(status);
      expect(op.parameters?.find((p) => p.in === 'header')?.name, `${method} ${path}`).toBe('idempotency-key');
      const takesBody =
        method === 'patch' || (method === 'post' && !path.endsWith('/rotate-secret') && !path.endsWith('/calendar-address'));
      expect(op.requestBody !== undefined, `${method} ${path} body`).toBe(takesBody);
    }
  });

  it("types a saved search's params as the filters of /certificates/search, in the request as the search reads them and in the answer as it stores them", () => {
    const filters = Object.keys(CertificateSearchFilters.shape);
    const body = doc.paths['/api/v1/saved-searches']!.post!.requestBody!.content['application/json']!.schema!;
    const sent = body.properties!.params!;
    expect(sent.type).toBe('object');
    expect(Object.keys(sent.properties!)).toEqual(filters);
    expect(sent.additionalProperties).toBe(false);
    // What the search's reading takes: a list as an array or text, a number as itself or as text.
    const types = (name: string) => sent.properties![name]!.anyOf!.map((a) => a.type);
    expect(types('county')).toEqual(['array', 'string', 'string']);
    expect(types('face_min')).toEqual(['number', 'string', 'array']);
    expect(types('redeemed')).toEqual(['boolean', 'string', 'array']);
    const patched = doc.paths['/api/v1/saved-searches/{id}']!.patch!.requestBody!.content['application/json']!.schema!;
    expect(patched.properties!.params).toEqual(sent);
    // Stored as the search reads them: lists as arrays, numbers and booleans as themselves.
    const stored = doc.components.schemas.SavedSearch!.properties!.params!;
    expect(Object.keys(stored.properties!)).toEqual(filters);
    expect(stored.properties!.county!.type).toBe('array');
    expect(stored.properties!.face_min!.type).toBe('number');
  });

  it('names every shape, so generated clients can import them', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'Certificate',
        'CertificateSale',
        'Holder',
        'LandsAvailable',
        'County',
        'Source',
        'Usage',
        'Error',
        'Meta',
        'Pagination',
        'CertificateList',
        'CertificateSearchList',
        'CertificateResponse',
        'CertificateSaleList',
        'HolderList',
        'HolderResponse',
        'LandsAvailableList',
        'CountyListResponse',
        'CountyResponse',
        'SourceList',
        'UsageResponse',
        'Event',
        'EventList',
        'EventPagination',
        'CertificateEvent',
        'CertificatesLoadedEvent',
        'CertificateSaleEvent',
        'CountyEvent',
        'WebhookEndpointSecretResponse',
        'DeletedResponse',
      ]),
    );
    // The row's own texts (.describe()) come along into the named component.
    const certificate = doc.components.schemas.Certificate as { properties: Record<string, { description?: string }> };
    expect(certificate.properties.face_amount?.description).toBe(CertificateRow.shape.face_amount.description);
    for (const { path, op } of operations())
      for (const [status, response] of Object.entries(op.responses))
        for (const media of Object.entries(response.content ?? {}).filter(([type]) => type === 'application/json'))
          expect(media[1].schema?.$ref, `${path} ${status}`).toMatch(/^#\/components\/schemas\//);
  });

  it('declares no security on the public routes', () => {
    for (const path of ['/healthz', '/api/v1/openapi.json']) expect(doc.paths[path]?.get?.security, path).toEqual([]);
  });
});
