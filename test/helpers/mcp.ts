import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The SDK's own client on a listening server's /api/mcp, with the given request headers (the key). */
export async function connectMcp(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'taxcert-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', base), { requestInit: { headers } }));
  // Listing first makes the client check every structuredContent against the tool's outputSchema.
  await client.listTools();
  return client;
}

export interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: { issues?: { parameter: string; message: string }[] } & Record<string, unknown> };
}

/** The texts of a tool result, in order. */
export function texts(result: Record<string, unknown>): string[] {
  return (result.content as { type: string; text: string }[]).map((c) => c.text);
}

/** The REST error envelope a tool error carries as its second text. */
export function errorBody(result: Record<string, unknown>): ErrorBody {
  return JSON.parse(texts(result)[1]!) as ErrorBody;
}
