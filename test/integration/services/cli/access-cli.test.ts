// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../helpers/access.ts';
import { childEnv, runCli } from '../../../helpers/cli.ts';

let t: AccessTestApp;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
  // The CLI reads DATABASE_PATH and the secret like the server.
  env = childEnv(t.config, { KEY_HASH_SECRET: t.config.KEY_HASH_SECRET });
});
afterAll(async () => t.close());

const cli = async (args: string[]) => {
  const r = await runCli(args, env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};
const get = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/probe', headers: bearer(key) });

describe('operator CLI (forms and --json outputs scripts depend on)', () => {
  it('clients create, keys create, the server accepts the key at once; keys list never shows it; revoke holds next request', async () => {
    const created = await cli(['clients', 'create', '--name', 'Acme', '--plan', 'developer', '--json']);
    expect(created.code).toBe(0);
    const { id } = created.json();
    expect(Object.keys(created.json())).toEqual(['id']);

    const made = await cli(['keys', 'create', '--client', id, '--json']);
    expect(made.code).toBe(0);
    expect(Object.keys(made.json())).toEqual(['id', 'key']);
    const { id: keyId, key } = made.json() as { id: string; key: string };
    expect(key).toMatch(/^txc_live_[0-9A-Za-z]{32}$/);
    expect(made.stderr).not.toContain(key);
    expect((await get(key)).statusCode).toBe(200);

    const test = await cli(['keys', 'create', '--client', id, '--env', 'test', '--json']);
    expect(test.json().key).toMatch(/^txc_test_/);

    const listed = await cli(['keys', 'list', '--client', id]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(key.slice(9, 30));

    expect((await cli(['keys', 'revoke', keyId])).code).toBe(0);
    expect((await get(key)).statusCode).toBe(401);
  });

  it('clients set, plans set/list, packs grant, usage show and billing run-daily', async () => {
    const { id } = (
      await cli(['clients', 'create', '--name', 'Old', '--plan', 'free_trial', '--created-at', '2026-01-01T00:00:00Z', '--json'])
    ).json();
    const { key } = (await cli(['keys', 'create', '--client', id, '--json'])).json();
    expect((await cli(['clients', 'set', id, '--plan', 'growth', '--subscription', 'past_due'])).code).toBe(0);
    expect((await cli(['plans', 'set', 'growth', '--monthly-credits', '1', '--rpm', '77'])).code).toBe(0);
    const plans = (await cli(['plans', 'list', '--json'])).json().plans as { code: string; monthlyCredits: number; rpm: number }[];
    expect(plans.find((p) => p.code === 'growth')).toMatchObject({ monthlyCredits: 1, rpm: 77 });

    expect((await get(key)).statusCode).toBe(200);
    const limited = await get(key);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['x-ratelimit-limit']).toBe('77');

    expect((await cli(['packs', 'grant', '--client', id, '--pack', 'starter'])).code).toBe(0);
    expect((await get(key)).statusCode).toBe(200);
    expect((await cli(['clients', 'set', id, '--subscription', 'active'])).code).toBe(0);
    await cli(['plans', 'set', 'growth', '--monthly-credits', '0']);

    const usage = (await cli(['usage', 'show', '--client', id, '--json'])).json();
    expect(usage).toMatchObject({ client_id: id, plan: 'growth', subscription: 'active', events: { live: 2, test: 0 } });
    expect(usage.packs).toEqual([expect.objectContaining({ pack: 'starter', remaining: 999 })]);

    const billing = await cli(['billing', 'run-daily', '--json']);
    expect(billing.code).toBe(0);
    expect(billing.json()).toEqual({ date: new Date().toISOString().slice(0, 10), lines: [] });
    const past = await cli(['billing', 'run-daily', '--date', '2020-01-01', '--json']);
    expect(past.json()).toEqual({ date: '2020-01-01', lines: [] });
  });

  // Independent spawns (each pays tsx's start-up): side by side.
  it.concurrent.each([
    [['clients', 'create', '--name', 'X', '--plan', 'gold']],
    [['clients', 'create', '--name', 'X', '--plan', 'pro', '--created-at', 'yesterday']],
    [['clients', 'set', 'cli_x']],
    [['keys', 'create', '--client', 'cli_x', '--env', 'staging']],
    [['packs', 'grant', '--client', 'cli_x', '--pack', 'huge']],
    [['plans', 'set', 'pro', '--rpm', '0']],
    [['billing', 'run-daily', '--date', '2026-02-30']],
    [['clients', 'create', '--plan', 'pro']],
    [['keys', 'revoke']],
    [['usage', 'show', '--client', 'cli_x', '--bogus']],
  ])('usage error exits 2 with one line: %j', async (args) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});
