import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { responseMode } from '../../../../../services/api/mcp/accept.ts';
import { calledTool, checkBody, isServedVersion } from '../../../../../services/api/mcp/protocol.ts';

describe('responseMode (Accept -> JSON body or event stream)', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['application/json, text/event-stream', 'json'],
    ['text/event-stream, application/json', 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['text/event-stream', 'sse'],
    ['text/*', 'sse'],
    ['application/json;q=0.5, text/event-stream', 'sse'],
    ['application/json, text/event-stream;q=0.9', 'json'],
    ['text/event-stream, */*;q=0.1', 'sse'],
    ['text/html', null],
    ['application/json;q=0, text/event-stream;q=0', null],
    ['*/*, application/json;q=0', 'sse'],
  ] as const)('%s -> %s', (accept, mode) => {
    expect(responseMode(accept)).toBe(mode);
  });
});

describe('checkBody (what the SDK never sees)', () => {
  const init = (protocolVersion: unknown) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });

  it('takes one message, and answers an older initialize with the newest version', () => {
    const kept = checkBody(init('2025-06-18'), undefined);
    expect(kept.ok && (kept.message.params as { protocolVersion: string }).protocolVersion).toBe('2025-06-18');
    for (const old of ['2025-03-26', '2024-11-05', 'not-a-version', 7]) {
      const raised = checkBody(init(old), undefined);
      expect(raised.ok && (raised.message.params as { protocolVersion: string }).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    }
  });

  it('refuses bad JSON, batches, non-objects and old protocol headers with JSON-RPC errors', () => {
    expect(checkBody('{', undefined)).toMatchObject({ ok: false, status: 400, body: { id: null, error: { code: -32700 } } });
    expect(checkBody(undefined, undefined)).toMatchObject({ ok: false, body: { error: { code: -32700 } } });
    expect(checkBody('[]', undefined)).toMatchObject({ ok: false, body: { error: { code: -32600 } } });
    expect(checkBody('"x"', undefined)).toMatchObject({ ok: false, body: { error: { code: -32600 } } });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(checkBody(list, '2025-03-26')).toMatchObject({ ok: false, status: 400 });
    expect(checkBody(list, '2025-06-18')).toMatchObject({ ok: true });
    expect(checkBody(list, undefined)).toMatchObject({ ok: true });
  });

  it('serves 2025-06-18 and newer only', () => {
    expect(isServedVersion('2025-06-18')).toBe(true);
    expect(isServedVersion(LATEST_PROTOCOL_VERSION)).toBe(true);
    expect(isServedVersion('2025-03-26')).toBe(false);
    expect(isServedVersion('2099-01-01')).toBe(false);
  });

  it('names the tool a request calls (what decides the credit)', () => {
    expect(calledTool({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_certificates' } })).toBe(
      'search_certificates',
    );
    expect(calledTool({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} })).toBe('');
    expect(calledTool({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'x' } })).toBeNull();
    expect(calledTool({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).toBeNull();
    expect(calledTool({ jsonrpc: '2.0', id: 0, method: 'initialize' })).toBeNull();
  });
});
