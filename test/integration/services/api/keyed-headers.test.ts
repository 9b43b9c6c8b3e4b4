import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../helpers/access.ts';
import { postMcp } from '../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

/**
 * A keyed answer carries one customer's data, so no cache may keep it and no browser may sniff it
 * into another type. Checked over real HTTP on every kind of answer: JSON, CSV, each error, the MCP
 * endpoint in both modes.
 */
describe('no-store and nosniff headers on every keyed answer', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let base: string;
  let auth: Record<string, string> = {};
  const get = (path: string, headers: Record<string, string> = auth) => fetch(new URL(path, base), { headers });
  const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    auth = await apiKeyHeaders(t.runtime);
    app = await buildApp(t.runtime);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t.teardown();
  });

  const expectGuarded = async (res: Response, status: number, type: RegExp) => {
    expect(res.status, await res.clone().text()).toBe(status);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // An event stream keeps no-transform, so no proxy buffers it.
    expect(res.headers.get('cache-control')).toMatch(/^no-store(, no-transform)?$/);
  };

  it.each([
    ['JSON list', '/api/v1/certificates/search?county=miami-dade', 200],
    ['JSON object', '/api/v1/account/usage', 200],
    ['400 bad parameter', '/api/v1/certificates/search?limit=0', 400],
    ['404 unknown id', '/api/v1/certificates/cert_nope', 404],
    ['404 unknown route in the scope', '/api/v1/nope', 404],
    ['JSON counties', '/api/v1/counties', 200],
  ])('/api/v1 %s', async (_name, path, status) => {
    await expectGuarded(await get(path), status, /^application\/json/);
  });

  it('/api/v1 CSV', async () => {
    await expectGuarded(await get('/api/v1/certificates/search?county=miami-dade&format=csv'), 200, /^text\/csv/);
  });

  it('/api/v1 401 without a key and 405 for a POST', async () => {
    await expectGuarded(await get('/api/v1/counties', {}), 401, /^application\/json/);
    await expectGuarded(await fetch(new URL('/api/v1/counties', base), { method: 'POST', headers: auth }), 405, /^application\/json/);
  });

  it('/api/mcp in JSON and event-stream mode, and its 401', async () => {
    await expectGuarded(await postMcp(base, listTools, { ...auth, accept: 'application/json' }), 200, /^application\/json/);
    await expectGuarded(await postMcp(base, listTools, { ...auth, accept: 'text/event-stream' }), 200, /^text\/event-stream/);
    await expectGuarded(await postMcp(base, listTools), 401, /^application\/json/);
  });

  it('leaves the public answers alone', async () => {
    for (const path of ['/healthz', '/api/v1/openapi.json']) {
      const res = await get(path, {});
      expect(res.headers.get('cache-control')).toBeNull();
    }
  });
});
