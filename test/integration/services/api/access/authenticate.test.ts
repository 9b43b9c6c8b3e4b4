// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticate } from '../../../../../services/api/access/authenticate.ts';
import type { Params, Sql } from '../../../../../services/control/db/sql.ts';
import { UnauthorizedError } from '../../../../../services/api/access/errors.ts';
import { hashKey, revokeKey } from '../../../../../services/control/billing/api-keys.ts';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

let t: AccessTestApp;
let key: string;
let clientId: string;

beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
  const made = await t.client('enterprise');
  key = made.key;
  clientId = made.client.id;
});
afterAll(async () => t.close());

const get = (headers: Record<string, string>, url = '/api/v1/probe') => t.app.inject({ method: 'GET', url, headers });

describe('accepted headers (spec 5.3)', () => {
  it.each([
    ['Bearer', (k: string) => ({ authorization: `Bearer ${k}` })],
    ['bearer in lower case', (k: string) => ({ authorization: `bearer ${k}` })],
    ['BEARER in upper case', (k: string) => ({ authorization: `BEARER ${k}` })],
    ['X-API-Key', (k: string) => ({ 'x-api-key': k })],
    ['the same key in both headers', (k: string) => ({ authorization: `Bearer ${k}`, 'x-api-key': k })],
  ])('%s authenticates', async (_name, headers) => {
    const res = await get(headers(key));
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('10000');
  });
});

describe('every failure is the same 401 (spec 5.7)', () => {
  it('missing, malformed, unknown, revoked, suspended, conflicting, other scheme, spacing, ?api_key all match', async () => {
    const other = await t.client('enterprise');
    const revoked = await t.client('developer');
    await revokeKey(t.runtime.sql, revoked.keyId);
    const suspended = await t.client('developer');
    await setClient(t.runtime.sql, suspended.client.id, { status: 'suspended' });
    const closed = await t.client('developer');
    await setClient(t.runtime.sql, closed.client.id, { status: 'closed' });
    const unknown = `${key.slice(0, -4)}abcd`;
    const cases: [string, Record<string, string>, string?][] = [
      ['no header', {}],
      ['malformed key', bearer('not-a-key')],
      ['wrong prefix', bearer(key.replace(/^txc_/, 'abc_'))],
      ['unknown key', bearer(unknown)],
      ['revoked key', bearer(revoked.key)],
      ['suspended client', bearer(suspended.key)],
      ['closed client', bearer(closed.key)],
      ['different keys in both headers', { authorization: `Bearer ${key}`, 'x-api-key': other.key }],
      ['Basic scheme', { authorization: `Basic ${key}` }],
      ['scheme only', { authorization: 'Bearer' }],
      ['two spaces after Bearer', { authorization: `Bearer  ${key}` }],
      ['tab after Bearer', { authorization: `Bearer\t${key}` }],
      ['key without scheme', { authorization: key }],
      ['valid X-API-Key but a Basic Authorization', { authorization: 'Basic Zm9vOmJhcg==', 'x-api-key': key }],
      ['key only in ?api_key=', {}, `/api/v1/probe?api_key=${key}`],
      ['empty X-API-Key', { 'x-api-key': '' }],
    ];
    const bodies = new Set<string>();
    for (const [name, headers, url] of cases) {
      const res = await get(headers, url);
      expect(res.statusCode, name).toBe(401);
      expect(res.headers['content-type'], name).toMatch(/^application\/json/);
      // No key is known, so no rate headers.
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'retry-after'])
        expect(res.headers[h], `${name}: ${h}`).toBeUndefined();
      const body = res.json() as { error: { code: string; request_id: string } };
      expect(body.error.code).toBe('unauthorized');
      expect(body.error.request_id).toMatch(/^req_/);
      bodies.add(JSON.stringify({ ...body, error: { ...body.error, request_id: 'x' } }));
    }
    expect(bodies.size).toBe(1);
  });

  it('the 401 also guards the usage route and wins over a bad parameter', async () => {
    const res = await get({}, '/api/v1/account/usage?nope=1');
    expect(res.statusCode).toBe(401);
  });

  it('a revoked key fails on the very next request; a new key works at once (rotation)', async () => {
    const first = await t.key(clientId);
    const second = await t.key(clientId);
    expect((await get(bearer(first.key))).statusCode).toBe(200);
    expect((await get(bearer(second.key))).statusCode).toBe(200);
    await revokeKey(t.runtime.sql, first.keyId);
    expect((await get(bearer(first.key))).statusCode).toBe(401);
    expect((await get(bearer(second.key))).statusCode).toBe(200);
  });

  it('suspending and reactivating a client applies from the next request', async () => {
    const c = await t.client('developer');
    expect((await get(bearer(c.key))).statusCode).toBe(200);
    await setClient(t.runtime.sql, c.client.id, { status: 'suspended' });
    expect((await get(bearer(c.key))).statusCode).toBe(401);
    await setClient(t.runtime.sql, c.client.id, { status: 'active' });
    expect((await get(bearer(c.key))).statusCode).toBe(200);
  });
});

describe('the same work for every 401', () => {
  it('a malformed, unknown, absent or other-scheme key is hashed once and looked up once, as a real key is', async () => {
    // Counted instead of timed: equal work is what makes the cases cost the same (so a 401 does not
    // tell whether a key exists), and a count does not depend on how busy the machine is.
    const looked: unknown[][] = [];
    const auth = createAuthenticate(countingLookups(t.runtime.sql, looked), {
      secret: t.config.KEY_HASH_SECRET,
      prefix: t.config.KEY_PREFIX,
    });
    const unknown = `${key.slice(0, -4)}abcd`;
    const cases: [string, Record<string, string>][] = [
      ['the real key', bearer(key)],
      ['malformed', bearer('x')],
      ['unknown well-formed', bearer(unknown)],
      ['absent', {}],
      ['another scheme', { authorization: `Basic ${key}` }],
    ];
    const realHash = hashKey(t.config.KEY_HASH_SECRET, key);
    for (const [name, headers] of cases) {
      looked.length = 0;
      try {
        await auth(headers);
      } catch (err) {
        expect(err, name).toBeInstanceOf(UnauthorizedError);
      }
      expect(looked, name).toHaveLength(1);
      const [hash] = looked[0]!;
      // One HMAC each: the value looked up is a digest of the real key's shape whatever was presented.
      expect(hash, name).toMatch(/^[0-9a-f]{64}$/);
      if (name === 'the real key') expect(hash).toBe(realHash);
      else expect(hash, name).not.toBe(realHash);
      if (name === 'unknown well-formed') expect(hash).toBe(hashKey(t.config.KEY_HASH_SECRET, unknown));
    }
  });
});

/** The real database, with every statement's get() arguments recorded in `looked`. */
function countingLookups(sql: Sql, looked: unknown[][]): Sql {
  return new Proxy(sql, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop !== 'get') return typeof value === 'function' ? value.bind(target) : value;
      return (text: string, params?: Params) => {
        looked.push([...((params as unknown[] | undefined) ?? [])]);
        return target.get(text, params);
      };
    },
  });
}
