// @module-tag postgres
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';
import { connectMcp, postMcp } from '../../../../helpers/mcp.ts';

/**
 * /api/mcp validates Origin, as the MCP Streamable HTTP transport requires against DNS rebinding. A
 * request carrying an Origin not on MCP_ALLOWED_ORIGINS gets 403 with a JSON-RPC error before its
 * key is even read; requests without Origin (agents, the SDK's client, curl) pass.
 */

let t: AccessTestApp;
let base: string;
let allowing: FastifyInstance;
let allowingBase: string;

beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  allowing = await buildApp({ ...t.runtime, config: { ...t.config, MCP_ALLOWED_ORIGINS: ['https://app.example.com'] } });
  allowingBase = await allowing.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await allowing.close();
  await t.close();
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const forbidden = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32000,
    message: 'Forbidden: requests from this Origin may not call /api/mcp; only allowlisted browser origins may',
    data: { code: 'origin_not_allowed', request_id: expect.stringMatching(/^req_/) },
  },
};

describe('Origin on /api/mcp with the default (empty) allowlist', () => {
  it('a page on another site, the server’s own origin (what DNS rebinding forges) and "null" get 403, uncounted', async () => {
    const c = await t.client('developer');
    for (const origin of ['https://evil.example', new URL(base).origin, 'null']) {
      const res = await postMcp(base, initialize, { ...bearer(c.key), origin });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('content-type'), origin).toMatch(/^application\/json/);
      expect(await res.json(), origin).toEqual(forbidden);
    }
    // Without a key too: the Origin is checked first.
    expect((await postMcp(base, initialize, { origin: 'https://evil.example' })).status).toBe(403);
    // None of the refusals took a window slot.
    const ok = await postMcp(base, initialize, bearer(c.key));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('requests without Origin pass, the SDK client included', async () => {
    const c = await t.client('developer');
    const client = await connectMcp(base, bearer(c.key));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('Origin on /api/mcp with MCP_ALLOWED_ORIGINS=https://app.example.com', () => {
  it('the listed origin passes; another scheme, port or host does not', async () => {
    const c = await t.client('developer');
    const ok = await postMcp(allowingBase, initialize, { ...bearer(c.key), origin: 'https://app.example.com' });
    expect(ok.status).toBe(200);
    for (const origin of [
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://evil.example',
      'https://app.example.com.evil.example',
    ]) {
      const res = await postMcp(allowingBase, initialize, { ...bearer(c.key), origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json(), origin).toEqual(forbidden);
    }
  });
});
