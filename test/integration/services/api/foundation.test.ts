// @module-tag postgres
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { migrate } from '../../../../services/control/db/migrate.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

/** What every /api/v1 route shares: envelopes, 400/404/405 paths, request ids, the OpenAPI document. */
describe('API foundation', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let headers: { authorization: string };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    app = await buildApp(t.runtime);
    headers = await apiKeyHeaders(t.runtime);
  });
  afterAll(async () => {
    await app.close();
    await t.teardown();
  });

  it('lists all 67 counties alphabetically in the object envelope, with a req_ id in meta and X-Request-Id', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/counties', headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(67);
    const names = body.data.map((c: { countyName: string }) => c.countyName);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_[A-Za-z0-9_-]+$/), dataset_status: 'live' });
    expect(res.headers['x-request-id']).toBe(body.meta.request_id);
  });

  it('gives one county by slug and 404 not_found for an unknown slug', async () => {
    const ok = await app.inject({ method: 'GET', url: '/api/v1/counties/miami-dade', headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ countySlug: 'miami-dade', countyName: 'Miami-Dade', countyFips: '12086' });
    const missing = await app.inject({ method: 'GET', url: '/api/v1/counties/atlantis', headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.json().error).toMatchObject({ code: 'not_found', request_id: missing.json().error.request_id });
  });

  it('refuses an unknown parameter with 400 naming it (and a close match)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/counties?limt=5&x=1', headers });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('bad_request');
    expect(error.details.issues).toEqual([
      { parameter: 'limt', message: expect.stringContaining('unknown parameter') },
      { parameter: 'x', message: expect.stringContaining('unknown parameter') },
    ]);
  });

  it('answers 400 for broken percent-encoding in the query string and in the path', async () => {
    const q = await app.inject({ method: 'GET', url: '/api/v1/counties?x=%E0%A4%A', headers });
    expect(q.statusCode).toBe(400);
    expect(q.json().error.details.issues[0].message).toMatch(/percent-encoding/);
    const p = await app.inject({ method: 'GET', url: '/api/v1/counties/%E0%A4%A', headers });
    expect(p.statusCode).toBe(400);
    expect(p.json().error.code).toBe('bad_request');
  });

  it('answers 405 with an Allow header for other methods on a real path, 404 on an unknown path', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await app.inject({ method, url: '/api/v1/counties/broward', headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json().error.code).toBe('method_not_allowed');
    }
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it('keeps the framework statuses (415 for a body of an unknown type) in the error envelope', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/healthz-nothing',
      headers: { 'content-type': 'application/x-weird' },
      payload: 'x',
    });
    expect([404, 415]).toContain(res.statusCode);
    expect(res.json().error.request_id).toMatch(/^req_/);
  });

  it('publishes an OpenAPI 3.1 document, version 1.0.0, free of charge, and an offline /docs page', async () => {
    const doc = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.version).toBe('1.0.0');
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/v1/counties', '/api/v1/counties/{county}']));
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    expect(docs.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });
});
