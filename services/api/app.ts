import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, LogController } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ApiDeps } from './deps.ts';
import { errorEnvelope } from './envelope.ts';
import { ApiError } from './errors.ts';
import { createAccess } from './access/access.ts';
import { registerAccess } from './access/register.ts';
import { usageRoute } from './routes/account/route.ts';
import { healthRoute } from './routes/health/route.ts';

export function requestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

export async function buildApp(deps: ApiDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestId,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: deps.config.NODE_ENV === 'test',
    }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The only place an error envelope is written (spec 2.11). 5xx details stay in the log.
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.status).send(errorEnvelope(err.code, err.message, request.id, err.details));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        parameter: v.instancePath.replace(/^\//, '').replace(/\//g, '.') || String(v.params?.issue ?? ''),
        message: v.message ?? 'invalid',
      }));
      const first = issues[0];
      const message = first ? `${first.parameter}: ${first.message}` : 'invalid parameters';
      return reply.code(400).send(errorEnvelope('bad_request', message, request.id, { issues }));
    }
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(400).send(errorEnvelope('bad_request', err.message, request.id));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(errorEnvelope('internal_error', 'internal server error', request.id));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorEnvelope('not_found', `no route ${request.method} ${request.url.split('?')[0]}`, request.id)),
  );

  await app.register(healthRoute(deps));

  const access = createAccess(deps);
  // Exposed for the MCP endpoint and for reading the rate-limit store's failure count.
  app.decorate('access', access);
  await app.register(
    async (v1) => {
      // One hook for every /api/v1 route: authenticate, rate-limit, gate, charge (services/api/access).
      registerAccess(v1, access);
      await v1.register(usageRoute(access));
    },
    { prefix: '/api/v1' },
  );
  return app;
}
