// @module-tag postgres
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { createOpenSearch } from '../../../../../../services/engine/client.ts';
import { openRuntime, type Runtime } from '../../../../../../services/process/runtime.ts';
import { testContext } from '../../../../../helpers/context.ts';
import { blackHole, freePort } from '../../../../../helpers/ports.ts';

describe('GET /healthz', () => {
  const ctx = testContext(import.meta.url);
  let runtime: Runtime;
  let hole: Awaited<ReturnType<typeof blackHole>>;

  beforeAll(async () => {
    runtime = await openRuntime(ctx.config);
    hole = await blackHole();
  });

  afterAll(async () => {
    for (const s of hole.sockets) s.destroy();
    hole.server.close();
    await runtime.close();
    ctx.cleanupFiles();
  });

  it('answers 200 with every dependency ok, without an API key', async () => {
    const app = await buildApp(runtime);
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    // The control plane's field is named for its engine: sqlite, or postgres under TEST_DATABASE_URL.
    expect(res.json()).toEqual({ status: 'ok', opensearch: 'ok', redis: 'ok', [runtime.sql.dialect]: 'ok' });
    await app.close();
  });

  it('answers 503 naming Redis within 2 s when Redis hangs', async () => {
    const redis = new Redis(`redis://127.0.0.1:${hole.port}`, { maxRetriesPerRequest: 1, connectTimeout: 500, lazyConnect: true });
    redis.on('error', () => undefined);
    void redis.connect().catch(() => undefined);
    const app = await buildApp({ ...runtime, redis });
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    // A real-time bound, because it is the contract: the load balancer waits 2 s. The checks give
    // up at 1 s (timed on a fake clock in test/unit/services/api/health-checks.test.ts); 1 s is the room.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body).toMatchObject({ status: 'unavailable', opensearch: 'ok', [runtime.sql.dialect]: 'ok' });
    expect(body.redis).toBe('unavailable');
    await app.close();
    redis.disconnect();
  });

  it('answers 503 naming OpenSearch within 2 s when OpenSearch hangs', async () => {
    const opensearch = createOpenSearch({ OPENSEARCH_URL: `http://127.0.0.1:${hole.port}` });
    const app = await buildApp({ ...runtime, opensearch });
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    // The load balancer's 2 s, as above.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body).toMatchObject({ status: 'unavailable', redis: 'ok', [runtime.sql.dialect]: 'ok' });
    expect(body.opensearch).toBe('unavailable');
    await app.close();
    await opensearch.close();
  });

  it('names no host, port or client error to a caller without a key, and logs the reason', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const redis = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => undefined);
    void redis.connect().catch(() => undefined);
    const opensearch = createOpenSearch({ OPENSEARCH_URL: `http://127.0.0.1:${port}` });
    const app = await buildApp({ ...runtime, redis, opensearch, logger });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', opensearch: 'unavailable', redis: 'unavailable', [runtime.sql.dialect]: 'ok' });
    expect(res.body).not.toContain(String(port));
    expect(res.body).not.toContain('127.0.0.1');
    // The operator still learns why, from the log.
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; failures?: Record<string, string> });
    const failures = logged.find((l) => l.msg.startsWith('health check'))?.failures;
    expect(Object.keys(failures ?? {}).sort()).toEqual(['opensearch', 'redis']);
    expect(JSON.stringify(failures)).toMatch(/ECONNREFUSED|closed|Connection/i);
    await app.close();
    redis.disconnect();
    await opensearch.close();
  });

  it('answers unknown paths with the error envelope', async () => {
    const app = await buildApp(runtime);
    const res = await app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.error.code).toBe('not_found');
    expect(body.error.request_id).toMatch(/^req_/);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    await app.close();
  });
});
