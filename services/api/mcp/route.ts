import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { responseMode } from './accept.ts';
import type { Admission, Caller, McpGate } from './gate.ts';
import { calledTool, checkBody, RPC, rpcError } from './protocol.ts';
import { createMcpServer } from './server.ts';
import type { Tool } from './tool.ts';
import { TOOLS } from './tools.ts';

export const MCP_PATH = '/api/mcp';

/**
 * /api/mcp: the MCP endpoint over Streamable HTTP, stateless, in the API's own
 * Fastify app and outside the /api/v1 scope (its own access gate, its own body
 * handling). Every request: identify the key (401) -> read the body -> admit
 * (window, plan, credit) -> check the message -> a new server and transport for
 * this one request. The SDK's web-standard transport (the one its Node transport
 * wraps) answers a Response that Fastify sends like any other reply, so the
 * request id, rate-limit headers and logging stay Fastify's.
 */
export function mcpRoutes(deps: ApiDeps, gate: McpGate, tools: readonly Tool[] = TOOLS) {
  return async (app: FastifyInstance) => {
    const callers = new WeakMap<FastifyRequest, Caller>();
    const free = new Set(tools.filter((t) => t.free).map((t) => t.name));

    // The body is read as text and parsed here, after admission, so a malformed body is
    // still an authenticated, counted request and gets a JSON-RPC error, not the REST 400.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    app.addHook('onRequest', async (request) => {
      callers.set(request, gate.identify(request.headers));
    });

    app.route({
      method: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'],
      url: MCP_PATH,
      // Not a REST operation: the OpenAPI document describes /api/v1; the README describes MCP.
      schema: { hide: true },
      handler: async (request, reply) => {
        const caller = callers.get(request)!;
        const post = request.method === 'POST';
        const checked = post ? checkBody(request.body as string | undefined, header(request, 'mcp-protocol-version')) : undefined;
        // Each tools/call costs 1 credit (an unknown tool too, refunded with its error); free tools and
        // every other message (initialize, tools/list, notifications) cost nothing.
        const tool = checked?.ok ? calledTool(checked.message) : null;
        const charge = tool !== null && !free.has(tool);

        let admission: Admission;
        try {
          admission = await gate.admit(caller, charge, request.id);
        } catch (err) {
          if (err instanceof ApiError && (err.code === 'rate_limited' || err.code === 'payment_required'))
            return sendLimit(reply, err, request.id);
          throw err;
        }
        const outcome = { succeeded: false };
        reply.raw.once('close', () => admission.settle(outcome.succeeded));
        reply.headers(admission.headers);

        // Stateless: no standalone event stream to GET and no session to DELETE (Streamable HTTP
        // lets a server answer both with 405).
        if (!post || !checked)
          return reply
            .code(405)
            .header('allow', 'POST')
            .send(rpcError(RPC.serverError, `Method not allowed: ${MCP_PATH} takes JSON-RPC messages by POST (stateless, no event stream to GET)`));
        if (!checked.ok) return reply.code(checked.status).send(checked.body);
        const mode = responseMode(header(request, 'accept'));
        if (!mode)
          return reply.code(406).send(rpcError(RPC.serverError, 'Not Acceptable: accept application/json or text/event-stream'));

        const server = createMcpServer(tools, { deps, requestId: request.id, log: request.log, access: caller }, outcome);
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: mode === 'json',
        });
        transport.onerror = (err) => request.log.debug({ err: err.message }, 'mcp transport refused a message');
        reply.raw.once('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        const response = await transport.handleRequest(webRequest(request), { parsedBody: checked.message });
        return reply.send(response);
      },
    });
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request as the SDK's transport reads it. Accept is restated from the mode
 * already chosen (the transport insists on both types, while we also serve clients
 * that accept only one); the key headers stay out of the SDK's reach.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'authorization' || name === 'x-api-key') continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  headers.set('accept', 'application/json, text/event-stream');
  return new Request(new URL(request.url, 'http://mcp.invalid'), { method: 'POST', headers });
}

/**
 * The window is full or the credits are gone: the HTTP status and Retry-After of
 * REST (429/402), with a JSON-RPC error body an MCP client reads (Streamable HTTP:
 * a refused message gets an HTTP error status and may carry a JSON-RPC error).
 */
function sendLimit(reply: FastifyReply, err: ApiError, requestId: string) {
  const retryAfter = err.headers['retry-after'];
  const code = err.code === 'rate_limited' ? RPC.rateLimited : RPC.paymentRequired;
  return reply
    .code(err.status)
    .headers(err.headers)
    .send(
      rpcError(code, err.message, {
        code: err.code,
        request_id: requestId,
        ...(retryAfter ? { retry_after_seconds: Number(retryAfter) } : {}),
        ...(err.details ? { details: err.details } : {}),
      }),
    );
}
