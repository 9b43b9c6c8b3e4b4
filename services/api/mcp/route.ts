import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access, Paced } from '../access/access.ts';
import { decorateAccess } from '../access/register.ts';
import type { ApiDeps } from '../deps.ts';
import { errorReply } from '../error-reply.ts';
import { ApiError } from '../errors.ts';
import { responseMode } from './accept.ts';
import type { Caller } from './gate.ts';
import { originAllowed } from './origin.ts';
import { calledTool, checkBody, RPC, rpcError } from './protocol.ts';
import { type CallOutcome, createMcpServer } from './server.ts';
import type { Tool } from './tool.ts';
import { TOOLS } from './tools.ts';

export const MCP_PATH = '/api/mcp';

/**
 * /api/mcp: the MCP endpoint over Streamable HTTP, stateless, in the API's own
 * Fastify app and outside the /api/v1 scope (its own body handling), admitted by
 * the same access layer as REST. Every request, in order:
 *   onRequest   Origin (403) -> the key (401) -> requests in flight (429) ->
 *               the per-minute window (429) -> the plan's MCP flag (403)
 *               all before a byte of the body is read, so a request that trickles
 *               its body is already counted in its window and its in-flight cap
 *   body        at most MCP_MAX_BODY_BYTES (413), within REQUEST_TIMEOUT_MS (app.ts)
 *   handler     check the message -> the credit for a tools/call (402/429) -> a new
 *               server and transport for this one request
 *   onSend      settle: the credit is kept only if the call answered a result (the
 *               refund path REST uses, access.settle)
 * The SDK's web-standard transport (the one its Node transport wraps) answers a
 * Response that Fastify sends like any other reply, so the request id, rate-limit
 * headers and logging stay Fastify's.
 */
export function mcpRoutes(deps: ApiDeps, access: Access, tools: readonly Tool[] = TOOLS) {
  return async (app: FastifyInstance) => {
    const paced = new WeakMap<FastifyRequest, Paced>();
    const outcomes = new WeakMap<FastifyRequest, CallOutcome>();
    const free = new Set(tools.filter((t) => t.free).map((t) => t.name));
    const analytic = new Set(tools.filter((t) => t.analytic).map((t) => t.name));
    const origins = new Set(deps.config.MCP_ALLOWED_ORIGINS);
    const maxBody = deps.config.MCP_MAX_BODY_BYTES;
    decorateAccess(app);

    // The body is read as text and parsed in the handler, after admission, so a malformed body is
    // still an authenticated, counted request and gets a JSON-RPC error, not the REST 400.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: maxBody }, (_request, body, done) => done(null, body));

    // This scope's refusals in the words an MCP client reads; the rest (401, 403 mcp_disabled,
    // 500) keep the REST envelope, as before.
    app.setErrorHandler((err: FastifyError, request, reply) => {
      closeIfUnread(request, reply);
      if (err instanceof ApiError && (err.code === 'rate_limited' || err.code === 'payment_required'))
        return sendLimit(reply, err, request.id);
      if (err.statusCode === 413)
        return reply.code(413).send(
          rpcError(RPC.invalidRequest, `Payload Too Large: an ${MCP_PATH} body is one JSON-RPC message of at most ${maxBody} bytes`, {
            code: 'payload_too_large',
            request_id: request.id,
            max_bytes: maxBody,
          }),
        );
      return reply.send(errorReply(err, request, reply));
    });

    app.addHook('onRequest', async (request, reply) => {
      if (!originAllowed(request.headers.origin, origins))
        return closeIfUnread(request, reply)
          .code(403)
          .send(
            rpcError(
              RPC.serverError,
              `Forbidden: requests from this Origin may not call ${MCP_PATH}; only allowlisted browser origins may`,
              {
                code: 'origin_not_allowed',
                request_id: request.id,
              },
            ),
          );
      const principal = await access.authenticate(request.headers);
      request.principal = principal;
      access.hold(principal, reply.raw);
      const window = await access.pace(principal, { surface: 'mcp', csv: false }, request.id);
      reply.headers(window.headers);
      paced.set(request, window);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      await access.settle(request, reply.statusCode < 300 && outcomes.get(request)?.succeeded === true);
      return payload;
    });

    app.route({
      method: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'],
      url: MCP_PATH,
      bodyLimit: maxBody,
      // Not a REST operation: the OpenAPI document describes /api/v1; the README describes MCP.
      schema: { hide: true },
      handler: async (request, reply) => {
        const principal = request.principal!;
        const post = request.method === 'POST';
        const checked = post ? checkBody(request.body as string | undefined, header(request, 'mcp-protocol-version')) : undefined;
        // Each tools/call costs 1 credit (an unknown tool too, refunded with its error); free tools and
        // every other message (initialize, tools/list, notifications) cost nothing.
        const tool = checked?.ok ? calledTool(checked.message) : null;
        // An analytic tool takes a place in the client's analytic share before its credit, as its REST twin does.
        if (tool !== null && analytic.has(tool)) access.holdAnalytic(principal, reply.raw);
        const admission = await access.charge(principal, paced.get(request)!, tool !== null && !free.has(tool), request.id);
        request.reservation = admission.reservation;
        const outcome: CallOutcome = { succeeded: false };
        outcomes.set(request, outcome);

        // Stateless: no standalone event stream to GET and no session to DELETE (Streamable HTTP
        // lets a server answer both with 405).
        if (!post || !checked)
          return reply
            .code(405)
            .header('allow', 'POST')
            .send(
              rpcError(
                RPC.serverError,
                `Method not allowed: ${MCP_PATH} takes JSON-RPC messages by POST (stateless, no event stream to GET)`,
              ),
            );
        if (!checked.ok) return reply.code(checked.status).send(checked.body);
        const mode = responseMode(header(request, 'accept'));
        if (!mode) return reply.code(406).send(rpcError(RPC.serverError, 'Not Acceptable: accept application/json or text/event-stream'));

        const caller: Caller = { principal, ledger: access.ledger };
        const server = createMcpServer(tools, { deps, requestId: request.id, log: request.log, access: caller }, outcome);
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: mode === 'json',
        });
        transport.onerror = (err) => request.log.debug({ err: err.message }, 'mcp transport refused a message');
        try {
          await server.connect(transport);
          const response = await transport.handleRequest(webRequest(request), { parsedBody: checked.message });
          // Our tools answer once and never stream progress, so an event stream ends with the one
          // answer: read whole here, the outcome is known in onSend, where the credit is settled.
          if (mode === 'sse' && response.body) return reply.send(new Response(await response.text(), response));
          return reply.send(response);
        } finally {
          void transport.close();
          void server.close();
        }
      },
    });
  };
}

/**
 * A refusal sent before the body was read (onRequest, or a body over the limit) closes
 * the connection: otherwise Node keeps reading and discarding the rest of the body to
 * reuse the connection, and a client trickling it keeps the socket until the request
 * timeout, refused or not.
 */
function closeIfUnread(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!request.raw.complete) reply.header('connection', 'close');
  return reply;
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
