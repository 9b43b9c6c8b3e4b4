// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS, idempotent } from '../../../../../services/api/writes/idempotency.ts';
import { listEndpoints } from '../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../services/control/feed/webhook-secrets.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

// The one write convention (services/api/writes), seen through its first resource.

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
const call = (key: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(key), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const usage = async (key: string) => (await call(key, 'GET', '/api/v1/account/usage')).json().data.events_count as number;
const count = async (clientId: string) => (await listEndpoints(t.runtime.sql, clientId)).length;

describe('Idempotency-Key', () => {
  it('replays the first answer to a retry with the same body, creating nothing, 1 credit per request', async () => {
    const { client, key } = await t.client('growth');
    const body = { url: 'https://a.example.com/hooks', types: ['certificate.redeemed'] };
    const first = await call(key, 'POST', '/api/v1/webhook-endpoints', body, { 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(201);
    const before = await usage(key);
    // The same body with its keys in another order is the same request.
    const again = await call(
      key,
      'POST',
      '/api/v1/webhook-endpoints',
      { types: ['certificate.redeemed'], url: 'https://a.example.com/hooks' },
      {
        'idempotency-key': 'k-1',
      },
    );
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(client.id)).toBe(1);
    expect(await usage(key)).toBe(before + 1);

    const other = await call(
      key,
      'POST',
      '/api/v1/webhook-endpoints',
      { url: 'https://b.example.com/hooks' },
      { 'idempotency-key': 'k-1' },
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatchObject({
      code: 'idempotency_conflict',
      details: { idempotency_key: 'k-1', reason: 'other_request' },
    });
    expect(await count(client.id)).toBe(1);

    // Keys are per client: another client's k-1 is its own.
    const stranger = await t.client('growth');
    expect((await call(stranger.key, 'POST', '/api/v1/webhook-endpoints', body, { 'idempotency-key': 'k-1' })).statusCode).toBe(201);
    expect(await count(stranger.client.id)).toBe(1);
  });

  it('replays a DELETE as its first 200, not a 404; a refused write leaves the key free', async () => {
    const { key } = await t.client('growth');
    const id = (await call(key, 'POST', '/api/v1/webhook-endpoints', { url: 'https://c.example.com/hooks' })).json().data.id as string;
    const first = await call(key, 'DELETE', `/api/v1/webhook-endpoints/${id}`, undefined, { 'idempotency-key': 'del-1' });
    const again = await call(key, 'DELETE', `/api/v1/webhook-endpoints/${id}`, undefined, { 'idempotency-key': 'del-1' });
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json()).toEqual(first.json());
    expect((await call(key, 'DELETE', `/api/v1/webhook-endpoints/${id}`, undefined, { 'idempotency-key': 'del-2' })).statusCode).toBe(404);

    const refused = await call(key, 'PATCH', '/api/v1/webhook-endpoints/whe_nope', { status: 'disabled' }, { 'idempotency-key': 'p-1' });
    expect(refused.statusCode).toBe(404);
    const later = await call(
      key,
      'POST',
      '/api/v1/webhook-endpoints',
      { url: 'https://d.example.com/hooks' },
      { 'idempotency-key': 'p-1' },
    );
    expect(later.statusCode).toBe(201);
  });

  it('lets only one of two concurrent retries run; the other is 409 or the replay', async () => {
    const { client, key } = await t.client('growth');
    const body = { url: 'https://e.example.com/hooks' };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(key, 'POST', '/api/v1/webhook-endpoints', body, { 'idempotency-key': 'race' })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const s of statuses) expect([201, 409]).toContain(s);
    expect(await count(client.id)).toBe(1);
    const ids = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().data.id));
    expect(ids.size).toBe(1);
  });

  it('refuses a malformed key with a 400 naming the header', async () => {
    const { key } = await t.client('growth');
    const res = await call(
      key,
      'POST',
      '/api/v1/webhook-endpoints',
      { url: 'https://f.example.com/hooks' },
      { 'idempotency-key': 'x'.repeat(300) },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.issues[0].parameter).toBe('idempotency-key');
  });
});

describe('bodies and methods', () => {
  it('413 over 64 KiB, 415 for another content type, 400 for broken JSON or no object, all in the envelope and free', async () => {
    const { key } = await t.client('growth');
    const before = await usage(key);
    const big = await call(key, 'POST', '/api/v1/webhook-endpoints', { url: `https://g.example.com/${'a'.repeat(70_000)}` });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('64 KiB') });
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'url=https://h.example.com',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('application/json') });
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{"url":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('bad_request');
    const list = await call(key, 'POST', '/api/v1/webhook-endpoints', ['https://i.example.com']);
    expect(list.statusCode).toBe(400);
    expect(list.json().error.details.issues[0].parameter).toBe('body');
    // The writes that read no body hold to the same limit (the document promises 413 on every write),
    // refusing before anything is deleted or rotated.
    const made = await call(key, 'POST', '/api/v1/webhook-endpoints', { url: 'https://j.example.com/hooks' });
    const id = made.json().data.id as string;
    for (const [method, url] of [
      ['DELETE', `/api/v1/webhook-endpoints/${id}`],
      ['POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`],
      ['DELETE', '/api/v1/saved-searches/ss_anything'],
    ] as const) {
      const over = await call(key, method, url, { padding: 'a'.repeat(70_000) });
      expect(over.statusCode, `${method} ${url}`).toBe(413);
    }
    expect((await call(key, 'GET', `/api/v1/webhook-endpoints/${id}`)).json().data.secret_rotated_at).toBeNull();
    expect(await usage(key)).toBe(before + 2);
  });

  it('allows writes only on the write routes: the data routes keep their 405', async () => {
    const { key } = await t.client('growth');
    const data = await call(key, 'POST', '/api/v1/counties', {});
    expect(data.statusCode).toBe(405);
    expect(data.headers.allow).toBe('GET, HEAD');
    const put = await call(key, 'PUT', '/api/v1/webhook-endpoints/whe_x', {});
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
    const deliveries = await call(key, 'POST', '/api/v1/webhook-endpoints/whe_x/deliveries', {});
    expect(deliveries.statusCode).toBe(405);
  });

  it('needs a key like every request', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/webhook-endpoints', payload: { url: 'https://j.example.com' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('the key store (idempotent)', () => {
  it('replays within 24 hours and runs again after them', async () => {
    const { client } = await t.client('growth');
    const deps = { sql: t.runtime.sql, box: createSecretBox(t.config.WEBHOOK_SECRET_KEY) };
    const scope = { clientId: client.id, key: 'day', fingerprint: 'f1' };
    let runs = 0;
    const write = async () => ({ status: 201, body: { n: ++runs } });
    const start = new Date('2030-01-01T00:00:00.000Z');
    expect(await idempotent(deps, scope, write, start)).toEqual({ status: 201, body: { n: 1 }, replayed: false });
    const later = new Date(start.getTime() + IDEMPOTENCY_TTL_MS - 1000);
    expect(await idempotent(deps, scope, write, later)).toEqual({ status: 201, body: { n: 1 }, replayed: true });
    const after = new Date(start.getTime() + IDEMPOTENCY_TTL_MS + 1000);
    expect(await idempotent(deps, { ...scope, fingerprint: 'f2' }, write, after)).toEqual({ status: 201, body: { n: 2 }, replayed: false });
    // A 5xx is not kept: the next retry runs.
    const failing = { ...scope, key: 'five' };
    await idempotent(deps, failing, async () => ({ status: 503, body: {} }), start);
    expect((await idempotent(deps, failing, write, start)).replayed).toBe(false);
    // The stored answer is sealed, not readable in the table.
    const row = await t.runtime.sql.get<{ body: string }>('SELECT body FROM idempotency_keys WHERE client_id = ? AND idempotency_key = ?', [
      client.id,
      'day',
    ]);
    expect(row!.body).not.toContain('"n"');
  });
});
