// @module-tag postgres
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccess } from '../../../../../services/api/access/register.ts';
import { buildApp } from '../../../../../services/api/app.ts';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

/**
 * A read may run beside the Redis round trip of its admission (access/register.ts).
 * These pin what that must never change: nothing is sent before the window and the
 * credit have answered, a refusal replaces whatever the route produced, and a
 * client that is refused, new, or asking for what its plan lacks waits first.
 */

let t: AccessTestApp;
let app: FastifyInstance;
/** For each request id: whether its admission was still running when the route began. */
const overlapped = new Map<string, boolean>();

beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
  app = await buildApp(t.runtime);
  const access = app.access;
  await app.register(
    async (scope) => {
      registerAccess(scope, access);
      scope.get('/overlap', async (request, reply) => {
        overlapped.set(request.id, request.admission !== null);
        const { status = '200', format } = request.query as { status?: string; format?: string };
        if (format === 'csv') return reply.type('text/csv; charset=utf-8').header('content-disposition', 'inline').send('a,b\n1,2\n');
        return reply.code(Number(status)).send({ data: { ok: true }, meta: { request_id: request.id, dataset_status: 'live' } });
      });
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const get = async (key: string, query = '') => {
  const res = await app.inject({ method: 'GET', url: `/api/v1/overlap${query}`, headers: bearer(key) });
  const id = String(res.headers['x-request-id']);
  return { res, ran: overlapped.has(id), overlapped: overlapped.get(id) === true };
};
const charges = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM credit_ledger WHERE client_id = ? AND kind = 'charge'", [clientId]))!
    .n;

describe('a read beside its admission', () => {
  it('a new client waits for its first admission; once seen with room, its reads start at once and still carry the window headers', async () => {
    const c = await t.client('enterprise');
    const first = await get(c.key);
    expect(first).toMatchObject({ ran: true, overlapped: false });
    const second = await get(c.key);
    expect(second).toMatchObject({ ran: true, overlapped: true });
    expect(second.res.statusCode).toBe(200);
    expect(second.res.headers['x-ratelimit-limit']).toBe('10000');
    expect(second.res.headers['x-ratelimit-remaining']).toBe('9998');
    expect(await charges(c.client.id)).toBe(2);
  });

  it('a window that filled since (a lowered RPM) answers 429 in place of the page, uncharged, and the next request waits', async () => {
    const c = await t.client('developer');
    expect((await get(c.key)).res.statusCode).toBe(200);
    expect((await get(c.key)).res.statusCode).toBe(200);
    await setClient(t.runtime.sql, c.client.id, { rpm: 2 });
    const refused = await get(c.key);
    expect(refused.overlapped).toBe(true);
    expect(refused.res.statusCode).toBe(429);
    expect(refused.res.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.res.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.res.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.res.json().error).toMatchObject({ code: 'rate_limited', request_id: refused.res.headers['x-request-id'] });
    expect(refused.res.json().data).toBeUndefined();
    expect(await charges(c.client.id)).toBe(2);
    const next = await get(c.key);
    expect(next).toMatchObject({ ran: false });
    expect(next.res.statusCode).toBe(429);
  });

  it('the limit outranks the route: a 400 produced beside a refused admission is sent as the 429', async () => {
    const c = await t.client('developer');
    await get(c.key);
    await setClient(t.runtime.sql, c.client.id, { rpm: 1 });
    const refused = await get(c.key, '?status=400');
    expect(refused.overlapped).toBe(true);
    expect(refused.res.statusCode).toBe(429);
    expect(refused.res.json().error.code).toBe('rate_limited');
  });

  it('a CSV answer replaced by a refusal is a JSON envelope without the CSV headers', async () => {
    const c = await t.client('pro');
    await get(c.key);
    await setClient(t.runtime.sql, c.client.id, { rpm: 1 });
    const refused = await get(c.key, '?format=csv');
    expect(refused.overlapped).toBe(true);
    expect(refused.res.statusCode).toBe(429);
    expect(refused.res.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.res.headers['content-disposition']).toBeUndefined();
    expect(refused.res.json().error.code).toBe('rate_limited');
  });

  it('a request its plan refuses never reaches the route, even from a client with room', async () => {
    const c = await t.client('developer');
    await get(c.key);
    const csv = await get(c.key, '?format=csv');
    expect(csv.ran).toBe(false);
    expect(csv.res.statusCode).toBe(403);
    expect(csv.res.json().error.code).toBe('csv_disabled');
  });

  it('credit running out beside a read gives the 402, uncharged; the next request waits and gets the 402 without a read', async () => {
    const c = await t.client('free_trial');
    const principal = await app.access.authenticate(bearer(c.key));
    for (let i = 0; i < 498; i++) await app.access.ledger.charge(principal.account, new Date(), `req_setup_${i}`);
    expect((await get(c.key)).res.statusCode).toBe(200);
    expect((await get(c.key)).overlapped).toBe(true);
    const out = await get(c.key);
    expect(out.overlapped).toBe(true);
    expect(out.res.statusCode).toBe(402);
    expect(out.res.json().error.code).toBe('payment_required');
    const next = await get(c.key);
    expect(next).toMatchObject({ ran: false });
    expect(next.res.statusCode).toBe(402);
    expect(await charges(c.client.id)).toBe(500);
  });
});
