import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../../deps.ts';
import { runChecks } from '../../health.ts';

/** Leaves headroom under the 2 s the load balancer waits. */
const CHECK_TIMEOUT_MS = 1000;

const CheckValue = z.enum(['ok', 'unavailable']).describe('"ok", or "unavailable" when the dependency did not answer (the reason is logged, not served)');
const HealthBody = z.object({
  status: z.enum(['ok', 'unavailable']),
  opensearch: CheckValue,
  redis: CheckValue,
  sqlite: CheckValue,
});

export function healthRoute(deps: Pick<ApiDeps, 'opensearch' | 'redis' | 'db'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          summary: 'Liveness of the service and its three dependencies (no API key needed)',
          tags: ['operations'],
          response: { 200: HealthBody, 503: HealthBody },
        },
      },
      async (request, reply) => {
        const { healthy, results, failures } = await runChecks(
          {
            opensearch: async () => {
              const res = await deps.opensearch.cluster.health({ timeout: '1s' }, { requestTimeout: CHECK_TIMEOUT_MS });
              if (res.body.status === 'red') throw new Error('cluster health is red');
            },
            redis: async () => {
              await deps.redis.ping();
            },
            sqlite: async () => {
              deps.db.prepare('SELECT 1').get();
            },
          },
          CHECK_TIMEOUT_MS,
        );
        if (!healthy) request.log.warn({ failures }, 'health check: a dependency is unavailable');
        return reply.code(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'unavailable', ...results });
      },
    );
  };
}
