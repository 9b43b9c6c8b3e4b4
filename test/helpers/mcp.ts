import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's own client on a listening server's /api/mcp, with the given request
 * headers (the key). `stream`: the client says it prefers event streams (the SDK
 * itself accepts both equally, which our server answers with JSON).
 */
export async function connectMcp(base: string, headers: Record<string, string> = {}, options: { stream?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: 'taxcert-tests', version: '1.0.0' });
  const preferStream: typeof fetch = (url, init) => {
    const h = new Headers(init?.headers);
    if (init?.method === 'POST') h.set('accept', 'application/json;q=0.5, text/event-stream');
    return fetch(url, { ...init, headers: h });
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', base), {
      requestInit: { headers },
      ...(options.stream ? { fetch: preferStream } : {}),
    }),
  );
  // Listing first makes the client check every structuredContent against the tool's outputSchema.
  await client.listTools();
  return client;
}

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    request_id: string;
    details?: { issues?: { parameter: string; message: string }[] } & Record<string, unknown>;
  };
}

/** The texts of a tool result, in order. */
export function texts(result: Record<string, unknown>): string[] {
  return (result.content as { type: string; text: string }[]).map((c) => c.text);
}

/** The REST error envelope a tool error carries as its second text. */
export function errorBody(result: Record<string, unknown>): ErrorBody {
  return JSON.parse(texts(result)[1]!) as ErrorBody;
}

/**
 * One raw JSON-RPC POST to a listening server's /api/mcp, as a client that accepts
 * JSON and event streams would send it; `headers` add to or replace those. A string
 * body is sent as it is (malformed JSON on purpose).
 */
export function postMcp(base: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL('/api/mcp', base), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
