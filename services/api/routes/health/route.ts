import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { runChecks } from '../../health.ts';
import { publicAnswer } from '../../openapi/responses.ts';
import { HealthBody } from './row.ts';

/** Leaves headroom under the 2 s the load balancer waits. */
const CHECK_TIMEOUT_MS = 1000;

const healthy = { status: 'ok', opensearch: 'ok', redis: 'ok', sqlite: 'ok' };
const unhealthy = { status: 'unavailable', opensearch: 'ok', redis: 'unavailable', sqlite: 'ok' };

export function healthRoute(deps: Pick<ApiDeps, 'opensearch' | 'redis' | 'sql'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          operationId: 'getHealth',
          summary: 'Liveness of the service and its three dependencies (no API key needed)',
          description:
            'For load balancers and uptime checks: 200 when OpenSearch, Redis and the control plane (the `sqlite` or `postgres` field, as DATABASE_URL chooses) all answer within a second, 503 otherwise. Free, no API key needed.',
          tags: ['service'],
          security: [],
          response: {
            200: publicAnswer(HealthBody, 'Every dependency answered.', healthy),
            503: publicAnswer(HealthBody, 'At least one dependency did not answer.', unhealthy),
          },
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
            // Named for the control plane's engine: SQLite deployments keep the field they watch.
            [deps.sql.dialect]: async () => {
              await deps.sql.get('SELECT 1 AS one');
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
