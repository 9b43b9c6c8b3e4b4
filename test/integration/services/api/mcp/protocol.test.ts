// @module-tag postgres
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { migrate } from '../../../../../services/control/db/migrate.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../helpers/access.ts';
import { connectMcp, errorBody, postMcp } from '../../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';

/**
 * /api/mcp as a client sees it: the SDK's own client over HTTP against a listening
 * server, and raw HTTP for what the SDK client never sends (other Accept headers,
 * old protocol versions, batches, bad JSON, GET and DELETE).
 */
describe('MCP endpoint: protocol', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let base: string;
  const clients: Client[] = [];

  /** The one place requests get their credentials. */
  let auth: Record<string, string> = {};

  async function connect(): Promise<Client> {
    const client = await connectMcp(base, auth);
    clients.push(client);
    return client;
  }

  function rest(path: string): Promise<{ data: unknown }> {
    return fetch(new URL(path, base), { headers: auth }).then((r) => r.json() as Promise<{ data: unknown }>);
  }

  /** A JSON-RPC answer read off a raw response. */
  function rpc(res: Response) {
    return res.json() as Promise<{
      jsonrpc: string;
      result: { tools: unknown[]; protocolVersion: string };
      error: { code: number; message: string };
    }>;
  }

  const post = (body: unknown, headers: Record<string, string> = {}) => postMcp(base, body, { ...auth, ...headers });

  const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    auth = await apiKeyHeaders(t.runtime);
    app = await buildApp(t.runtime);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await app.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t.teardown();
  });

  it('initializes over HTTP and lists tools whose input schemas are the REST parameters, without format', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'taxcert', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/1 credit/);
    const { tools } = await client.listTools();
    const county = tools.find((tool) => tool.name === 'get_county');
    expect(county?.inputSchema).toMatchObject({
      type: 'object',
      // One slug, or an array of exactly one: a county argument means the same in every tool.
      properties: {
        county: { anyOf: [expect.objectContaining({ type: 'string' }), expect.objectContaining({ type: 'array', maxItems: 1 })] },
      },
      required: ['county'],
      additionalProperties: false,
    });
    expect(county?.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['data', 'meta']) });
    expect(county?.annotations).toMatchObject({ readOnlyHint: true });
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('format');
    }
  });

  it('list_counties and get_county answer the REST body as structured content, with a summary and the JSON text', async () => {
    const client = await connect();
    const all = await client.callTool({ name: 'list_counties', arguments: {} });
    const restAll = await rest('/api/v1/counties');
    expect(all.isError).toBeFalsy();
    const structured = all.structuredContent as { data: unknown[]; meta: { request_id: string } };
    expect(structured.data).toEqual(restAll.data);
    expect(structured.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
    const [summary, json] = all.content as { type: string; text: string }[];
    expect(summary?.text).toMatch(/^67 counties/);
    expect(JSON.parse(json!.text)).toEqual(structured);

    const one = await client.callTool({ name: 'get_county', arguments: { county: 'Miami-Dade' } });
    expect((one.structuredContent as { data: unknown }).data).toEqual((await rest('/api/v1/counties/miami-dade')).data);
    expect((one.content as { text: string }[])[0]?.text).toBe('Miami-Dade County (miami-dade): directory_only, 0 certificates.');
  });

  it('answers bad arguments with a tool error naming each argument, never a protocol error or a 500', async () => {
    const client = await connect();
    const wrongType = await client.callTool({ name: 'get_county', arguments: { county: 12 } });
    expect(wrongType.isError).toBe(true);
    expect((wrongType.content as { text: string }[])[0]?.text).toMatch(/^Invalid arguments for get_county:\n- county: /);
    expect(errorBody(wrongType)).toMatchObject({
      error: { code: 'bad_request', request_id: expect.stringMatching(/^req_/), details: { issues: [{ parameter: 'county' }] } },
    });

    const missing = await client.callTool({ name: 'get_county', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(errorBody(missing)).toMatchObject({ error: { details: { issues: [{ parameter: 'county' }] } } });

    const unknown = await client.callTool({ name: 'list_counties', arguments: { limt: 5, format: 'csv' } });
    expect(unknown.isError).toBe(true);
    const issues = errorBody(unknown).error.details?.issues ?? [];
    expect(issues.map((i) => i.parameter)).toEqual(['limt', 'format']);
    expect(issues[0]?.message).toMatch(/unknown parameter/);

    const notFound = await client.callTool({ name: 'get_county', arguments: { county: 'atlantis' } });
    expect(notFound.isError).toBe(true);
    expect(errorBody(notFound)).toMatchObject({ error: { code: 'not_found' } });
    expect((notFound.content as { text: string }[])[0]?.text).toMatch(/^not_found: no county has the slug "atlantis"/);

    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool "no_such_tool"/);
  });

  it('answers JSON or an event stream as the client accepts, and 406 when it accepts neither', async () => {
    const json = await post(listTools, { accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await rpc(json)).result.tools.length).toBeGreaterThan(1);

    const both = await post(listTools);
    expect(both.headers.get('content-type')).toMatch(/^application\/json/);
    await both.body?.cancel();

    for (const accept of ['text/event-stream', 'application/json;q=0.5, text/event-stream']) {
      const sse = await post(listTools, { accept });
      expect(sse.status).toBe(200);
      expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await sse.text();
      const data = text.split('\n').find((line) => line.startsWith('data: '));
      expect(JSON.parse(data!.slice(6)).result.tools.length).toBeGreaterThan(1);
    }

    const none = await post(listTools, { accept: 'text/html' });
    expect(none.status).toBe(406);
    expect((await rpc(none)).error.message).toMatch(/Not Acceptable/);
  });

  it('works with the SDK client over event streams too', async () => {
    const client = await connectMcp(base, auth, { stream: true });
    clients.push(client);
    const result = await client.callTool({ name: 'get_county', arguments: { county: 'duval' } });
    expect((result.structuredContent as { data: { countySlug: string } }).data.countySlug).toBe('duval');
    const bad = await client.callTool({ name: 'get_county', arguments: { county: '' } });
    expect(errorBody(bad).error.details?.issues?.[0]?.parameter).toBe('county');
  });

  it('serves with or without a session id, and only protocol 2025-06-18 and newer', async () => {
    const withSession = await post(listTools, { 'mcp-session-id': 'a-session-from-elsewhere' });
    expect(withSession.status).toBe(200);
    expect(withSession.headers.get('mcp-session-id')).toBeNull();
    await withSession.body?.cancel();

    const old = await post(listTools, { 'mcp-protocol-version': '2025-03-26' });
    expect(old.status).toBe(400);
    expect((await rpc(old)).error.message).toMatch(/unsupported protocol version 2025-03-26; this server speaks .*2025-06-18/);

    const init = (version: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const negotiated = await post(init('2024-11-05'));
    expect((await rpc(negotiated)).result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const kept = await post(init('2025-06-18'));
    expect((await rpc(kept)).result.protocolVersion).toBe('2025-06-18');
  });

  it('stays out of the OpenAPI document (it is not a REST operation)', async () => {
    const doc = (await (await fetch(new URL('/api/v1/openapi.json', base))).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/v1/counties');
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/mcp'))).toEqual([]);
  });

  it('refuses batches, bad JSON and other methods with JSON-RPC errors', async () => {
    const batch = await post([listTools, { ...listTools, id: 2 }]);
    expect(batch.status).toBe(400);
    expect((await rpc(batch)).error).toMatchObject({ code: -32600, message: expect.stringMatching(/batches/) });

    const broken = await post('{"jsonrpc": "2.0", ');
    expect(broken.status).toBe(400);
    expect((await rpc(broken)).error.code).toBe(-32700);

    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetch(new URL('/api/mcp', base), { method, headers: { accept: 'text/event-stream', ...auth } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await rpc(res)).jsonrpc).toBe('2.0');
    }
  });
});
