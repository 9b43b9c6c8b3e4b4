import { calendarAddressRoute } from './routes/portfolios/calendar-address-route.ts';
import { randomFillSync } from 'node:crypto';
import type { ServerOptions } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createAccess } from './access/access.ts';
import { redactUrl } from '../logger.ts';
import type { ApiDeps } from './deps.ts';
import { errorEnvelope } from './envelope.ts';
import { errorReply } from './error-reply.ts';
import { registerKeyedHeaders } from './keyed-headers.ts';
import { CODE_BY_STATUS, MethodNotAllowedError } from './errors.ts';
import { mcpRoutes } from './mcp/route.ts';
import { registerOpenApi } from './openapi.ts';
// Names the document's schemas (components.schemas) before any route or the document is built.
import './routes/named-schemas.ts';
import { parseQueryString } from './params/query-string.ts';
import { healthRoute } from './routes/health/route.ts';
import { v1Routes } from './routes/v1.ts';
import { validatorCompiler } from './validation.ts';

/** Random bytes drawn 4 KB at a time: one call per request cost more than the rest of the id. */
const idBytes = Buffer.alloc(4096);
let idAt = idBytes.length;

export function requestId(): string {
  if (idAt + 12 > idBytes.length) {
    randomFillSync(idBytes);
    idAt = 0;
  }
  idAt += 12;
  return `req_${idBytes.toString('base64url', idAt - 12, idAt)}`;
}

export async function buildApp(deps: ApiDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestId,
    // 0 (Fastify's default) turns Node's own limits off, so a client could hold a
    // request open for ever by trickling its body. The whole request must arrive in time, and a
    // socket with nothing moving either way is closed.
    requestTimeout: deps.config.REQUEST_TIMEOUT_MS,
    connectionTimeout: deps.config.CONNECTION_TIMEOUT_MS,
    http: slowClientLimits(deps.config),
    // request.ip is the client's behind the proxies TRUST_PROXY names (their X-Forwarded-For), the socket's otherwise.
    trustProxy: deps.config.TRUST_PROXY.length > 0 ? deps.config.TRUST_PROXY : false,
    // The id is ours (req_<id>); a client's X-Request-Id is not trusted as a correlation id.
    requestIdHeader: false,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      // One line per request (onResponse below) instead of Fastify's two: a second JSON line per
      // request cost about 0.3 ms of a 2 ms id lookup on our 2-core machine.
      disableRequestLogging: true,
    }),
    // A long path parameter reaches its route (an unknown id is a 404 like any other), not the router's 414.
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: 2000 },
    // The router's own refusals (a path whose %-encoding is broken) still get the envelope.
    frameworkErrors: (err, request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      void reply
        .code(status)
        .header('x-request-id', request.id)
        .send(errorEnvelope(CODE_BY_STATUS.get(status) ?? 'bad_request', 'malformed URL: check its percent-encoding', request.id));
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Responses are built by our own mappers from schema-shaped values; re-validating every row
  // on the way out would cost more than the search. Live responses are checked against the
  // published OpenAPI document in the tests instead.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerKeyedHeaders(app);
  const requestLine = deps.requestLine;
  if (requestLine)
    app.addHook('onResponse', async (request, reply) => {
      requestLine({ method: request.method, url: request.url, statusCode: reply.statusCode, ms: reply.elapsedTime });
    });
  else if (deps.config.NODE_ENV !== 'test')
    app.addHook('onResponse', async (request, reply) => {
      if (!deps.logger.isLevelEnabled('info')) return;
      request.log.info(
        { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
        'request',
      );
    });

  // Every route's path and methods, to tell a wrong method on a real path (405, naming the
  // methods that path takes) from a wrong path (404). Data routes take GET and HEAD only; the
  // write routes (services/api/writes) add theirs on their own paths and nowhere else.
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    routes.push({ pattern: routePattern(route.url ?? route.path), methods });
  });

  // Every error's envelope (spec 2.11) comes from errorReply; 5xx details stay in the log.
  app.setErrorHandler((err: FastifyError, request, reply) => reply.send(errorReply(err, request, reply)));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (allowed.length > 0 && !allowed.includes(request.method)) throw new MethodNotAllowedError(request.method, allowed);
    return reply.code(404).send(errorEnvelope('not_found', `no route ${request.method} ${path}`, request.id));
  });

  await registerOpenApi(app);
  await app.register(healthRoute(deps));
  // A portfolio's secret calendar address: no key, so outside the /api/v1 scope.
  await app.register(calendarAddressRoute(deps));
  // The access layer, built once: the /api/v1 scope hooks it in, the MCP endpoint calls it.
  app.decorate('access', createAccess(deps));
  await app.register(v1Routes(deps), { prefix: '/api/v1' });
  // /api/mcp sits outside the /api/v1 scope: its own body handling, the same access layer.
  await app.register(mcpRoutes(deps, app.access));
  return app;
}

/**
 * Node answers 408 and closes a connection whose headers (headersTimeout) or whole
 * request (requestTimeout, set above) did not arrive in time, but only notices on
 * a sweep every connectionsCheckingInterval (30 s by default, which would double a
 * 30 s limit): sweep at a quarter of the headers limit, at most once a second.
 * Node wants the headers limit no longer than the request's.
 */
function slowClientLimits(config: Pick<ApiDeps['config'], 'REQUEST_TIMEOUT_MS' | 'HEADERS_TIMEOUT_MS'>): ServerOptions {
  const headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS);
  return { headersTimeout, connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersTimeout / 4))) };
}

/** /api/v1/certificates/:id -> a pattern matching any one path segment for :id. */
function routePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}
