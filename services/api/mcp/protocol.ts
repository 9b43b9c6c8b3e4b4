import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/**
 * What /api/mcp accepts before the SDK sees a message: protocol
 * 2025-06-18 and newer, one JSON-RPC message per POST (2025-06-18 dropped
 * batches, which also keeps "one tools/call, one credit" exact).
 */

export const OLDEST_PROTOCOL_VERSION = '2025-06-18';

/** JSON-RPC error codes: the standard ones, and ours in the implementation-defined -32000..-32099 range. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  serverError: -32000,
  /** The per-minute window is full or the monthly credits are used up (REST: 429 rate_limited). */
  rateLimited: -32029,
  /** Credits are gone on a plan that must pay to continue (REST: 402 payment_required). */
  paymentRequired: -32002,
} as const;

export interface RpcErrorBody {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data?: unknown };
}

/**
 * A JSON-RPC error answering an HTTP request the server did not take in, shaped
 * like the SDK transport's own (id null: Streamable HTTP says such a body "has no id").
 */
export function rpcError(code: number, message: string, data?: unknown): RpcErrorBody {
  return { jsonrpc: '2.0', id: null, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

export type Message = Record<string, unknown>;

export type Checked = { ok: true; message: Message } | { ok: false; status: number; body: RpcErrorBody };

/** Parses one POST body; refuses what the SDK would otherwise take from older protocol versions. */
export function checkBody(text: string | undefined, headerVersion: string | undefined): Checked {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch {
    return { ok: false, status: 400, body: rpcError(RPC.parseError, 'Parse error: the body is not JSON') };
  }
  if (Array.isArray(parsed))
    return {
      ok: false,
      status: 400,
      body: rpcError(
        RPC.invalidRequest,
        `Invalid Request: batches are not part of MCP ${OLDEST_PROTOCOL_VERSION} and later; send one message per POST`,
      ),
    };
  if (parsed === null || typeof parsed !== 'object')
    return { ok: false, status: 400, body: rpcError(RPC.invalidRequest, 'Invalid Request: the body must be one JSON-RPC message') };
  const message = parsed as Message;
  if (message.method === 'initialize') {
    // Negotiation (lifecycle spec): an older or unknown version asked for is answered with our
    // newest; the client then decides whether it can speak it.
    const params = message.params as { protocolVersion?: unknown } | undefined;
    if (params && typeof params === 'object' && !isServedVersion(params.protocolVersion)) params.protocolVersion = LATEST_PROTOCOL_VERSION;
  } else if (headerVersion !== undefined && !isServedVersion(headerVersion)) {
    return {
      ok: false,
      status: 400,
      body: rpcError(
        RPC.serverError,
        `Bad Request: unsupported protocol version ${headerVersion}; this server speaks ${SERVED_PROTOCOL_VERSIONS.join(', ')}`,
      ),
    };
  }
  return { ok: true, message };
}

export const SERVED_PROTOCOL_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= OLDEST_PROTOCOL_VERSION);

/** The SDK's versions from 2025-06-18 on; versions are dates, so they compare as strings. */
export function isServedVersion(version: unknown): boolean {
  return typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version) && version >= OLDEST_PROTOCOL_VERSION;
}

/** The tool a request (it has an id) calls, or null when the message calls no tool. */
export function calledTool(message: Message): string | null {
  if (message.method !== 'tools/call' || message.id === undefined || message.id === null) return null;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : '';
}
