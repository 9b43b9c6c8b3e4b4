// @module-tag postgres
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccess } from '../../../../../../services/api/access/register.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { createKey } from '../../../../../../services/control/billing/api-keys.ts';
import { createClient } from '../../../../../../services/control/billing/clients.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { bearer, deleteRateKeys } from '../../../../../helpers/access.ts';
import { postMcp } from '../../../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';

/**
 * A client may have at most CLIENT_MAX_ANALYTICS (2 by default) analytic requests in flight;
 * the next is a 429 at once, whatever its route or surface, costs no credit and takes no slot
 * of the per-minute window. Two requests are held in flight on a test route flagged analytic
 * like the real ones, released by the test (no timing involved), while the real routes and the
 * MCP tools are asked beside them.
 */
let t: TestRuntime;
let app: FastifyInstance;
let base: string;
const held: (() => void)[] = [];
let entered: (() => void) | null = null;

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  await migrate(t.runtime.sql);
  app = await buildApp(t.runtime);
  await app.register(
    async (scope) => {
      registerAccess(scope, app.access);
      // An analytic route whose answer waits until the test lets it go.
      scope.get('/held-analytic', { config: { analytic: true } }, async (request, reply) => {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          entered?.();
        });
        return reply.send({ data: { ok: true }, meta: { request_id: request.id, dataset_status: 'live' } });
      });
    },
    { prefix: '/api/v1' },
  );
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await app.close();
  await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
  await t.teardown();
});

async function newClient(plan: 'enterprise' | 'free_trial' = 'enterprise') {
  const client = await createClient(t.runtime.sql, { name: `share ${plan}`, plan });
  const { raw } = await createKey(t.runtime.sql, {
    clientId: client.id,
    env: 'live',
    prefix: t.config.KEY_PREFIX,
    secret: t.config.KEY_HASH_SECRET,
  });
  return { id: client.id, headers: bearer(raw) };
}

const get = (path: string, headers: Record<string, string>) => fetch(new URL(path, base), { headers });

/** Starts `n` held requests and resolves once every one of them is inside the route. */
async function hold(n: number, headers: Record<string, string>): Promise<Promise<Response>[]> {
  const before = held.length;
  const inside = new Promise<void>((resolve) => {
    entered = () => {
      if (held.length >= before + n) resolve();
    };
  });
  const pending = Array.from({ length: n }, () => get('/api/v1/held-analytic', headers));
  await inside;
  entered = null;
  return pending;
}

const charges = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM credit_ledger WHERE client_id = ? AND kind IN ('charge', 'overage')", [
    clientId,
  ]))!.n;

describe('analytic requests in flight per client', () => {
  it('the third at once is a 429 on every analytic route and tool, uncharged; other routes and other clients go on', async () => {
    const c = await newClient();
    const other = await newClient();
    const pending = await hold(2, c.headers);

    for (const path of ['/api/v1/analytics/holders', '/api/v1/analytics/bid-rates', '/api/v1/held-analytic']) {
      const res = await get(path, c.headers);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      const body = (await res.json()) as { error: { code: string; details: Record<string, unknown> } };
      expect(body.error.code).toBe('rate_limited');
      expect(body.error.details).toEqual({ reason: 'too_many_concurrent_analytics', max_concurrent_analytics: 2 });
    }
    // The MCP twin counts in the same share.
    const mcp = await postMcp(
      base,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_holder_groups', arguments: {} } },
      c.headers,
    );
    expect(mcp.status).toBe(429);

    // Not analytic: the client's other requests are not held back.
    expect((await get('/api/v1/counties', c.headers)).status).toBe(200);
    // Another client has its own share.
    expect((await get('/api/v1/analytics/bid-rates', other.headers)).status).toBe(200);

    for (const release of held.splice(0)) release();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual([200, 200]);
    // Their places are free again once their answers are sent.
    expect((await get('/api/v1/analytics/bid-rates', c.headers)).status).toBe(200);
    // Charged: the two held, the counties and the last; none of the refused.
    expect(await charges(c.id)).toBe(4);
  });

  it('a free trial gets the same share: its excess costs neither a credit nor a slot of its window', async () => {
    const c = await newClient('free_trial');
    const pending = await hold(2, c.headers);
    const refused = await get('/api/v1/analytics/holders', c.headers);
    expect(refused.status).toBe(429);
    // The window header of an admitted request shows two slots taken (the two held), not three.
    for (const release of held.splice(0)) release();
    await Promise.all(pending);
    const next = await get('/api/v1/analytics/bid-rates', c.headers);
    expect(next.status).toBe(200);
    expect(Number(next.headers.get('x-ratelimit-limit')) - Number(next.headers.get('x-ratelimit-remaining'))).toBe(3);
    expect(await charges(c.id)).toBe(3);
  });
});
