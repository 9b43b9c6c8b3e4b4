// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';
import { postMcp } from '../../../../helpers/mcp.ts';
import { mcpPostHead, type SlowRequest, slowRequest } from '../../../../helpers/slow-client.ts';

/**
 * One MCP call must not cost seconds of CPU, starting with its body: an /api/mcp body is one
 * JSON-RPC message of at most MCP_MAX_BODY_BYTES (64 KiB by default, the default here). A bigger
 * one, declared or streamed, is refused with 413 and a JSON-RPC error before it is parsed: counted
 * in the per-minute window (taken before the body), never charged.
 */

let t: AccessTestApp;
let base: string;
let slow: SlowRequest | undefined;

beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  // A server that waited for the trickled body would otherwise hold app.close() open.
  slow?.destroy();
  await t.close();
});

const call = (args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'get_county', arguments: args },
});
const charges = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>('SELECT count(*) AS n FROM credit_ledger WHERE client_id = ?', [clientId]))!.n;
const tooLarge = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32600,
    message: 'Payload Too Large: an /api/mcp body is one JSON-RPC message of at most 65536 bytes',
    data: { code: 'payload_too_large', request_id: expect.stringMatching(/^req_/), max_bytes: 65_536 },
  },
};

describe('the /api/mcp body limit', () => {
  it('a tools/call of 100,000 argument names (about 1.2 MB) gets 413 with a JSON-RPC error, counted, uncharged', async () => {
    const c = await t.client('developer');
    const args = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`unknown_argument_${i}`, 1]));
    const res = await postMcp(base, call({ county: 'leon', ...args }), bearer(c.key));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await res.json()).toEqual(tooLarge);
    expect(await charges(c.client.id)).toBe(0);
  });

  it('a streamed body without Content-Length is cut off once it passes the limit', async () => {
    const c = await t.client('developer');
    const chunk = new TextEncoder().encode(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${'x'.repeat(16_000)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded: 20 chunks (about 320 KB) at most, far past the limit.
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(new URL('/api/mcp', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer(c.key) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge);
  });

  it('a promised 100 KB body is refused on its Content-Length and its connection closed, not waited for', async () => {
    const c = await t.client('developer');
    // Trickled: a server that waited for the body would hold this until the 30 s request timeout.
    slow = slowRequest(new URL(base), mcpPostHead(new URL(base), c.key, 100_000));
    expect(await slow.answer).toBe(413);
    expect(await slow.closed).toBeLessThan(5_000);
  });

  it('a message just under the limit is read and answered', async () => {
    const c = await t.client('developer');
    const res = await postMcp(
      base,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { pad: 'x'.repeat(60_000) } } },
      bearer(c.key),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });
});
