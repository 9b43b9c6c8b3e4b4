import type { Client } from '@opensearch-project/opensearch';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { openControlPlane } from '../control/control-plane.ts';
import type { Sql } from '../control/db/sql.ts';
import { loadRegistry, type Registry } from '../domain/registry.ts';
import { createOpenSearch } from '../engine/client.ts';
import { PagingCaches } from '../engine/paging/caches.ts';
import { createLogger, type Logger, withoutPassword } from '../logger.ts';

/**
 * The long-lived handles a process needs, built in one place and closed in one
 * place, so every command can exit by itself when it is done.
 */
export interface Runtime {
  config: Config;
  logger: Logger;
  /** The county and sale-channel registry, loaded once here and passed down. */
  registry: Registry;
  /** The control plane (SQLite or PostgreSQL, control/control-plane.ts). */
  sql: Sql;
  opensearch: Client;
  /** What deep pages remember between requests on `opensearch` (sort field types, marks): built here once, passed down to every page read. */
  paging: PagingCaches;
  /** A non-blocking connection for commands and health checks (gives up after one retry when Redis is down). */
  redis: Redis;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, options: { name?: string; registry?: Registry } = {}): Promise<Runtime> {
  const logger = createLogger(config.LOG_LEVEL, { name: options.name, nodeEnv: config.NODE_ENV });
  // A command that validated its arguments against the registry hands that one in.
  const registry = options.registry ?? loadRegistry();
  const sql = await openControlPlane(config, { registry, indexPrefix: config.INDEX_PREFIX });
  const opensearch = createOpenSearch(config);
  // Commands issued while connecting wait for the connection (health checks bound them with a timer).
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    // The rate-limit scripts of the requests that arrive in one event-loop turn go to Redis in one
    // write and come back in one read, instead of a round trip each: less CPU per request under load
    // (see docs/decisions.md, "The request path's CPU budget").
    enableAutoPipelining: true,
  });
  // A Redis outage is reported by /healthz and by the commands that need it; it must not crash the process.
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  let closed = false;
  return {
    config,
    logger,
    registry,
    sql,
    opensearch,
    paging: new PagingCaches(),
    redis,
    async close() {
      if (closed) return;
      closed = true;
      redis.disconnect();
      await opensearch.close().catch(() => undefined);
      await sql.close();
      logger.flush();
    },
  };
}

/** A service the command needs (Redis, OpenSearch) does not answer: the operator starts it. */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
  readonly code = 'unavailable';
}

/** Resolves once Redis answers a PING, or rejects with a message that says how to fix it. */
export async function requireRedis(config: Pick<Config, 'REDIS_URL'>, timeoutMs = 2000): Promise<void> {
  if (!(await redisAnswers(config.REDIS_URL, timeoutMs)))
    throw new DependencyUnavailableError(
      `Redis does not answer at ${withoutPassword(config.REDIS_URL)}. Start it (redis-server --daemonize yes --port 6379 --save "") or point REDIS_URL at a running Redis.`,
    );
}

/** True when Redis at url answers a PING within timeoutMs. */
export async function redisAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
