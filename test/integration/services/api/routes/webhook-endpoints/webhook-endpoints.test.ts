// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents, publicEventId } from '../../../../../../services/control/feed/events.ts';
import { fanOut, listDeliveries, recordOutcomes } from '../../../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint } from '../../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../../services/control/feed/webhook-secrets.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../../helpers/access.ts';

// A client reads its own webhook endpoints and their deliveries, never a secret.

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(() => t.close());

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
const usage = async (key: string) => (await get(key, '/api/v1/account/usage')).json().data.events_count as number;
// Each endpoint is made a millisecond after the one before: two made in the same millisecond tie on
// created_at, and the list then orders them by id, which is random, not by which came first.
let clock = Date.now();
const makeEndpoint = (clientId: string, url: string, extra: { types?: ['certificate.redeemed'] } = {}) =>
  createEndpoint(
    t.runtime.sql,
    createSecretBox(t.config.WEBHOOK_SECRET_KEY),
    {
      clientId,
      url,
      types: extra.types ?? null,
      counties: null,
    },
    new Date(++clock),
  );

describe('GET /api/v1/webhook-endpoints', () => {
  it("lists the client's own endpoints, oldest first, without their secrets, for 1 credit", async () => {
    const { client, key } = await t.client('growth');
    const other = await t.client('growth');
    const first = await makeEndpoint(client.id, 'https://a.example.com/hooks', { types: ['certificate.redeemed'] });
    const second = await makeEndpoint(client.id, 'https://b.example.com/hooks');
    await makeEndpoint(other.client.id, 'https://other.example.com/hooks');

    const before = await usage(key);
    const res = await get(key, '/api/v1/webhook-endpoints');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ limit: 100, offset: 0, total: 2, has_more: false });
    expect(body.data).toEqual([
      {
        id: first.endpoint.id,
        url: 'https://a.example.com/hooks',
        types: ['certificate.redeemed'],
        counties: null,
        saved_searches: null,
        status: 'enabled',
        disabled_reason: null,
        disabled_at: null,
        secret_rotated_at: null,
        created_at: first.endpoint.createdAt,
      },
      expect.objectContaining({ id: second.endpoint.id, types: null }),
    ]);
    for (const secret of [first.secret, second.secret]) expect(res.body).not.toContain(secret.slice(6, 30));
    expect(res.body).not.toMatch(/whsec_|"secret"/);
    expect(await usage(key)).toBe(before + 1);

    expect((await get(key, '/api/v1/webhook-endpoints?limit=1&offset=1')).json().data.map((e: { id: string }) => e.id)).toEqual([
      second.endpoint.id,
    ]);
    const bad = await get(key, '/api/v1/webhook-endpoints?secret=1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues[0].parameter).toBe('secret');
  });

  it('is 403 webhooks_disabled, naming the plan, on plans without webhooks, and costs nothing', async () => {
    for (const plan of ['free_trial', 'developer'] as const) {
      const { key } = await t.client(plan);
      const before = await usage(key);
      for (const url of ['/api/v1/webhook-endpoints', '/api/v1/webhook-endpoints/whe_x/deliveries']) {
        const res = await get(key, url);
        expect(res.statusCode, `${plan} ${url}`).toBe(403);
        expect(res.json().error).toMatchObject({
          code: 'webhooks_disabled',
          message: expect.stringContaining(`The ${plan} plan does not include webhooks`),
          details: { plan },
        });
        expect(res.headers['x-ratelimit-limit']).toBeDefined();
      }
      expect(await usage(key)).toBe(before);
    }
  });

  it('answers Pro (webhooks in beta)', async () => {
    const { key } = await t.client('pro');
    const res = await get(key, '/api/v1/webhook-endpoints');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });
});

describe('GET /api/v1/webhook-endpoints/{id}/deliveries', () => {
  it('lists the deliveries newest first with every attempt, filtered by status or event, for 1 credit', async () => {
    const { client, key } = await t.client('enterprise');
    const { endpoint } = await makeEndpoint(client.id, 'https://c.example.com/hooks');
    const seqs = await appendEvents(t.runtime.sql, [
      { type: 'certificate.redeemed', countySlug: 'alachua', data: { object: { id: 'cert_1' }, previous: { status: 'sold' } } },
      { type: 'certificate.cancelled', countySlug: 'broward', data: { object: { id: 'cert_2' }, previous: { status: 'sold' } } },
    ]);
    await fanOut(t.runtime.sql, 1000);
    const [newest, oldest] = (await listDeliveries(t.runtime.sql, endpoint.id, { limit: 10, offset: 0 })).rows;
    const at = new Date().toISOString();
    await recordOutcomes(
      t.runtime.sql,
      [
        {
          deliveryId: oldest!.id,
          generation: 0,
          attempt: 1,
          startedAt: at,
          durationMs: 12,
          httpStatus: 500,
          error: null,
          responseBody: 'boom',
          endpointId: endpoint.id,
          gone: false,
          next: { kind: 'retry', at },
        },
        {
          deliveryId: oldest!.id,
          generation: 0,
          attempt: 2,
          startedAt: at,
          durationMs: 9,
          httpStatus: 204,
          error: null,
          responseBody: '',
          endpointId: endpoint.id,
          gone: false,
          next: { kind: 'delivered' },
        },
        {
          deliveryId: newest!.id,
          generation: 0,
          attempt: 1,
          startedAt: at,
          durationMs: 10_000,
          httpStatus: null,
          error: 'timeout: no complete answer within 10000 ms',
          responseBody: null,
          endpointId: endpoint.id,
          gone: false,
          next: { kind: 'retry', at },
        },
      ],
      3 * 24 * 3600 * 1000,
    );

    const before = await usage(key);
    const res = await get(key, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ limit: 25, offset: 0, total: 2, has_more: false });
    expect(body.data.map((d: { event_id: string }) => d.event_id)).toEqual([publicEventId(seqs[1]!), publicEventId(seqs[0]!)]);
    expect(body.data[1]).toEqual({
      id: `whd_${oldest!.id}`,
      endpoint_id: endpoint.id,
      event_id: publicEventId(seqs[0]!),
      event_type: 'certificate.redeemed',
      status: 'delivered',
      attempts: 2,
      next_attempt_at: null,
      last_error: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      attempt_log: [
        { attempt: 1, replay: 0, started_at: at, duration_ms: 12, http_status: 500, error: null, response_body: 'boom' },
        { attempt: 2, replay: 0, started_at: at, duration_ms: 9, http_status: 204, error: null, response_body: '' },
      ],
    });
    expect(body.data[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: at,
      last_error: 'timeout: no complete answer within 10000 ms',
    });
    expect(await usage(key)).toBe(before + 1);

    const pending = (await get(key, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?status=pending`)).json();
    expect(pending.data.map((d: { event_id: string }) => d.event_id)).toEqual([publicEventId(seqs[1]!)]);
    const one = (await get(key, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?event_id=${publicEventId(seqs[0]!)}`)).json();
    expect(one.pagination.total).toBe(1);

    for (const [query, parameter] of [
      ['status=lost', 'status'],
      ['event_id=42', 'event_id'],
      ['limit=0', 'limit'],
    ]) {
      const bad = await get(key, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().error.details.issues[0].parameter, query).toBe(parameter);
    }
  });

  it("is 404 for another client's endpoint as for an unknown one, and charges nothing", async () => {
    const mine = await t.client('growth');
    const theirs = await t.client('growth');
    const { endpoint } = await makeEndpoint(theirs.client.id, 'https://d.example.com/hooks');
    const before = await usage(mine.key);
    for (const id of [endpoint.id, 'whe_doesnotexist00000', 'nothing']) {
      const res = await get(mine.key, `/api/v1/webhook-endpoints/${id}/deliveries`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toMatchObject({
        code: 'not_found',
        message: `no webhook endpoint ${JSON.stringify(id)}; GET /api/v1/webhook-endpoints lists yours`,
      });
    }
    expect(await usage(mine.key)).toBe(before);
    expect((await get(theirs.key, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`)).statusCode).toBe(200);
  });
});
