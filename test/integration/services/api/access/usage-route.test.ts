// @module-tag postgres
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../helpers/access.ts';
import { testContext, type TestContext } from '../../../../helpers/context.ts';
import { openRuntime, type Runtime } from '../../../../../services/process/runtime.ts';

/** The real app as served: its own routes under the one /api/v1 scope, the usage route, the OpenAPI document. */
let ctx: TestContext;
let runtime: Runtime;
let app: FastifyInstance;
beforeAll(async () => {
  ctx = testContext(import.meta.url);
  runtime = await openRuntime(ctx.config);
  app = await buildApp(runtime);
});
afterAll(async () => {
  await app.close();
  await deleteRateKeys(runtime, ctx.config.INDEX_PREFIX);
  await runtime.close();
  ctx.cleanupFiles();
});

describe('GET /api/v1/account/usage on the real app', () => {
  it('counts the real routes (1 credit each), not itself, in the object envelope', async () => {
    const headers = await apiKeyHeaders(runtime, 'pro');
    for (const url of ['/api/v1/counties', '/api/v1/counties/broward', '/api/v1/counties/atlantis'])
      await app.inject({ method: 'GET', url, headers });
    const res = await app.inject({ method: 'GET', url: '/api/v1/account/usage', headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('150');
    const body = res.json();
    expect(body).toEqual({
      data: {
        events_count: 2, // the 404 was given back
        monthly_quota: 50_000,
        percent_used: 0,
        reset_date: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
        plan: 'pro',
      },
      meta: { request_id: body.meta.request_id, dataset_status: 'live' },
    });
    expect(body.meta.request_id).toMatch(/^req_/);
  });

  it('refuses parameters (strict, empty) and needs a key like every /api/v1 route', async () => {
    const headers = await apiKeyHeaders(runtime);
    expect((await app.inject({ method: 'GET', url: '/api/v1/account/usage?x=1', headers })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/v1/account/usage' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/v1/counties' })).statusCode).toBe(401);
  });

  it('is in the OpenAPI document with its response schema; the document itself needs no key', async () => {
    const doc = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(doc.statusCode).toBe(200);
    // Shapes are named components ($ref); resolved, the answer's data is the Usage object.
    type Schema = { properties: Record<string, Schema> };
    const spec = (await SwaggerParser.dereference(doc.json())) as unknown as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: Schema }> }> } }>;
    };
    const schema = spec.paths['/api/v1/account/usage']!.get.responses['200']!.content['application/json']!.schema;
    expect(Object.keys(schema.properties.data!.properties)).toEqual([
      'events_count',
      'monthly_quota',
      'percent_used',
      'reset_date',
      'plan',
    ]);
  });
});
