import { type ChildProcess, spawn } from 'node:child_process';
import { dropIndices } from '../../indexer/indices/describe.ts';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { registerAccess } from '../../services/api/access/register.ts';
import { buildApp } from '../../services/api/app.ts';
import { createKey, type KeyEnv } from '../../services/control/billing/api-keys.ts';
import { type Client, createClient } from '../../services/control/billing/clients.ts';
import type { PlanCode } from '../../services/control/billing/plans.ts';
import { openRuntime, type Runtime } from '../../services/process/runtime.ts';
import { type TestContext, testContext } from './context.ts';

/**
 * The real app (buildApp) plus a probe route in its own /api/v1 scope guarded by
 * the same registerAccess, so the hook is tested on a charged route before the
 * query routes exist. GET /api/v1/probe answers ?status=NNN (default 200).
 */
export async function buildProbeApp(runtime: Runtime): Promise<FastifyInstance> {
  const app = await buildApp(runtime);
  const access = app.access;
  await app.register(
    async (scope) => {
      registerAccess(scope, access);
      scope.get('/probe', async (request, reply) => {
        const status = Number((request.query as { status?: string }).status ?? 200);
        return reply.code(status).send({ data: { ok: status < 400 }, meta: { request_id: request.id, dataset_status: 'live' } });
      });
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
  return app;
}

export interface AccessTestApp extends TestContext {
  runtime: Runtime;
  app: FastifyInstance;
  /** Creates a client and one key; returns both (the raw key is only here). */
  client(plan: PlanCode, options?: { createdAt?: Date; env?: KeyEnv }): Promise<{ client: Client; key: string; keyId: string }>;
  key(clientId: string, env?: KeyEnv): Promise<{ key: string; keyId: string }>;
  close(): Promise<void>;
}

export async function openAccessTestApp(fileUrl: string, env: Record<string, string> = {}): Promise<AccessTestApp> {
  const ctx = testContext(fileUrl, env);
  const runtime = await openRuntime(ctx.config);
  const app = await buildProbeApp(runtime);
  const key = async (clientId: string, keyEnv: KeyEnv = 'live') => {
    const made = await createKey(runtime.sql, { clientId, env: keyEnv, prefix: ctx.config.KEY_PREFIX, secret: ctx.config.KEY_HASH_SECRET });
    return { key: made.raw, keyId: made.key.id };
  };
  return {
    ...ctx,
    runtime,
    app,
    key,
    async client(plan, options = {}) {
      const client = await createClient(runtime.sql, { name: `test ${plan}`, plan, createdAt: options.createdAt });
      return { client, ...(await key(client.id, options.env)) };
    },
    async close() {
      await app.close();
      // A test that ingests through this app leaves its file's indices: they go with it.
      await dropIndices(runtime.opensearch, ctx.config.INDEX_PREFIX).catch(() => undefined);
      await deleteRateKeys(runtime, ctx.config.INDEX_PREFIX);
      await runtime.close();
      ctx.cleanupFiles();
    },
  };
}

/** Drops this file's rate-limit windows (never FLUSHALL: Redis is shared). */
export async function deleteRateKeys(runtime: Runtime, prefix: string): Promise<void> {
  const keys = await runtime.redis.keys(`${prefix}-rl:*`).catch(() => [] as string[]);
  if (keys.length > 0) await runtime.redis.del(...keys).catch(() => undefined);
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * Headers with a fresh key of a new client (Enterprise: every feature, 10,000 RPM),
 * for route tests that are not about access: every /api/v1 request needs a key.
 */
export async function apiKeyHeaders(
  runtime: Pick<Runtime, 'sql' | 'config'>,
  plan: PlanCode = 'enterprise',
): Promise<{ authorization: string }> {
  const client = await createClient(runtime.sql, { name: `route tests ${plan}`, plan });
  const { raw } = await createKey(runtime.sql, {
    clientId: client.id,
    env: 'live',
    prefix: runtime.config.KEY_PREFIX,
    secret: runtime.config.KEY_HASH_SECRET,
  });
  return bearer(raw);
}

const ACCESS_SERVER = fileURLToPath(new URL('./access-server.ts', import.meta.url));

/**
 * Starts test/helpers/access-server.ts as a child process with `env`. `listening`
 * resolves with its URL once the child prints it and rejects if the child exits
 * first (with its stderr when `stderr` is 'pipe', which also lets the caller read it).
 */
export function spawnAccessServer(
  env: NodeJS.ProcessEnv,
  stderr: 'inherit' | 'pipe' = 'inherit',
): { child: ChildProcess; listening: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ACCESS_SERVER], { env, stdio: ['ignore', 'pipe', stderr] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const listening = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}${err ? `: ${err}` : ''}`)));
  });
  return { child, listening };
}
