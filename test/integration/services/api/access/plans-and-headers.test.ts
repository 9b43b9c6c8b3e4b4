// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClient } from '../../../../../services/control/billing/clients.ts';
import { listPlans, setPlan } from '../../../../../services/control/billing/plans.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';

let t: AccessTestApp;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
});
afterAll(async () => t.close());

const get = (key: string, url = '/api/v1/probe', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...bearer(key), ...headers } });

function expectRateHeaders(headers: Record<string, unknown>, limit: number) {
  expect(headers['x-ratelimit-limit']).toBe(String(limit));
  const remaining = Number(headers['x-ratelimit-remaining']);
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThan(limit);
  const reset = Number(headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  // Unix seconds, within the next minute.
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
  expect(headers.ratelimit).toMatch(new RegExp(`^"default";r=${remaining};t=\\d+$`));
}

describe('plans as data (spec 8.2)', () => {
  it('are seeded with the spec numbers, prices and flags', async () => {
    const plans = Object.fromEntries((await listPlans(t.runtime.sql)).map((p) => [p.code, p]));
    expect(plans.free_trial).toMatchObject({ monthlyCredits: 500, rpm: 30, rest: true, mcp: false, csv: false, webhooks: 'none' });
    expect(plans.developer).toMatchObject({ priceUsdCents: 1900, monthlyCredits: 10_000, rpm: 60, csv: false, overage: true });
    expect(plans.pro).toMatchObject({ priceUsdCents: 4900, monthlyCredits: 50_000, rpm: 150, csv: true, webhooks: 'beta' });
    expect(plans.growth).toMatchObject({ priceUsdCents: 14900, monthlyCredits: 250_000, rpm: 300, webhooks: 'included' });
    expect(plans.lead_feed).toMatchObject({ priceUsdCents: 29900, monthlyCredits: 750_000, rpm: 600 });
    expect(plans.enterprise).toMatchObject({ priceUsdCents: null, monthlyCredits: 2_000_000_000, rpm: 10_000, overage: false });
    expect(plans.mcp_starter).toMatchObject({ priceUsdCents: 500, monthlyCredits: 1000, rpm: 30, rest: false, mcp: true, csv: false });
  });
});

describe('plan flags', () => {
  it('an MCP Starter key on REST gets 403 rest_disabled, with rate headers, and costs nothing', async () => {
    const c = await t.client('mcp_starter');
    const res = await get(c.key);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('rest_disabled');
    expectRateHeaders(res.headers, 30);
    expect((await get(c.key, '/api/v1/account/usage')).statusCode).toBe(403);
  });

  it('CSV on a plan without CSV is 403 csv_disabled (format=csv or Accept: text/csv); Pro gets it', async () => {
    const dev = await t.client('developer');
    for (const res of [await get(dev.key, '/api/v1/probe?format=csv'), await get(dev.key, '/api/v1/probe', { accept: 'text/csv' })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('csv_disabled');
      expectRateHeaders(res.headers, 60);
    }
    const pro = await t.client('pro');
    expect((await get(pro.key, '/api/v1/probe?format=csv')).statusCode).toBe(200);
  });

  it('a plan change applies from the next request (RPM and features)', async () => {
    const c = await t.client('growth');
    expect((await get(c.key)).headers['x-ratelimit-limit']).toBe('300');
    await setPlan(t.runtime.sql, 'growth', { rpm: 301 });
    expect((await get(c.key)).headers['x-ratelimit-limit']).toBe('301');
    await setPlan(t.runtime.sql, 'growth', { rpm: 300 });
    await setClient(t.runtime.sql, c.client.id, { plan: 'mcp_starter' });
    expect((await get(c.key)).statusCode).toBe(403);
  });

  it('Enterprise numbers are per client', async () => {
    const c = await t.client('enterprise');
    await setClient(t.runtime.sql, c.client.id, { rpm: 12_345 });
    expect((await get(c.key)).headers['x-ratelimit-limit']).toBe('12345');
  });
});

describe('rate headers on every response once the key is known (spec 8.6)', () => {
  it('on 200, on a route error (404/500) and on a 400 from validation', async () => {
    const c = await t.client('developer');
    const ok = await get(c.key);
    expect(ok.statusCode).toBe(200);
    expectRateHeaders(ok.headers, 60);
    expect(ok.headers['retry-after']).toBeUndefined();
    for (const status of [404, 500]) {
      const res = await get(c.key, `/api/v1/probe?status=${status}`);
      expect(res.statusCode).toBe(status);
      expectRateHeaders(res.headers, 60);
    }
    const bad = await get(c.key, '/api/v1/account/usage?unknown=1');
    expect(bad.statusCode).toBe(400);
    expectRateHeaders(bad.headers, 60);
    const remaining = Number(ok.headers['x-ratelimit-remaining']);
    expect(Number(bad.headers['x-ratelimit-remaining'])).toBe(remaining - 3);
  });
});

describe('the same functions serve MCP (surface mcp)', () => {
  it('MCP Starter is admitted and charged on MCP; a plan without MCP gets 403 mcp_disabled', async () => {
    const access = t.app.access;
    const starter = await t.client('mcp_starter');
    const principal = await access.authenticate(bearer(starter.key));
    const admitted = await access.admit(principal, { surface: 'mcp', csv: false, charge: true }, 'req_mcp_1');
    expect(admitted.reservation).toMatchObject({ clientId: starter.client.id, bucket: 'monthly' });
    expect(admitted.headers['x-ratelimit-limit']).toBe('30');
    const trial = await t.client('free_trial');
    await expect(
      access.admit(await access.authenticate(bearer(trial.key)), { surface: 'mcp', csv: false, charge: true }, 'req_mcp_2'),
    ).rejects.toMatchObject({ code: 'mcp_disabled', status: 403 });
    await expect(access.authenticate({ authorization: 'Bearer nope' })).rejects.toThrow(expect.objectContaining({ code: 'unauthorized' }));
  });
});
