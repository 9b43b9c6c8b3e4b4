// @module-tag postgres
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { TOOLS } from '../../../../../services/api/mcp/tools.ts';
import { createKey } from '../../../../../services/control/billing/api-keys.ts';
import { createClient, setClient } from '../../../../../services/control/billing/clients.ts';
import { migrate } from '../../../../../services/control/db/migrate.ts';
import { secondsToNextMonth } from '../../../../../services/control/billing/periods.ts';
import type { PlanCode } from '../../../../../services/control/billing/plans.ts';
import { bearer, deleteRateKeys } from '../../../../helpers/access.ts';
import { connectMcp, errorBody, postMcp, texts } from '../../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';

/**
 * /api/mcp under the access layer: the same keys and header rules as REST before
 * any MCP handling, plan gating, one credit bucket and one per-minute window
 * shared with REST, and limits answered so an MCP client can read them.
 */
describe('MCP endpoint: keys, plans, credits and the rate limit', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let base: string;

  async function client(plan: PlanCode, change: { rpm?: number; monthlyCredits?: number } = {}) {
    const c = await createClient(t.runtime.sql, { name: `mcp ${plan}`, plan });
    if (change.rpm !== undefined || change.monthlyCredits !== undefined) await setClient(t.runtime.sql, c.id, change);
    const { raw } = await createKey(t.runtime.sql, {
      clientId: c.id,
      env: 'live',
      prefix: t.config.KEY_PREFIX,
      secret: t.config.KEY_HASH_SECRET,
    });
    return { id: c.id, key: raw, headers: bearer(raw) };
  }

  const rest = (path: string, headers: Record<string, string>) => fetch(new URL(path, base), { headers });

  const post = (body: unknown, headers: Record<string, string>) => postMcp(base, body, headers);

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  };
  const call = (name: string, args: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name, arguments: args },
  });

  const usage = async (headers: Record<string, string>) =>
    ((await (await rest('/api/v1/account/usage', headers)).json()) as { data: { events_count: number; plan: string } }).data;

  beforeAll(async () => {
    // The concurrent-charging test below sends 40 at once, more than a client may have in flight
    // by default (CLIENT_MAX_CONCURRENT 16, tested in mcp/limits.test.ts).
    t = await openTestRuntime(import.meta.url, { CLIENT_MAX_CONCURRENT: '1000' });
    await migrate(t.runtime.sql);
    app = await buildApp(t.runtime);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t.teardown();
  });

  it('answers a missing, bad or conflicting key with the REST 401 on every request, initialize included', async () => {
    const good = await client('developer');
    const cases: Record<string, string>[] = [
      {},
      bearer(`${t.config.KEY_PREFIX}_live_${'a'.repeat(32)}`),
      { authorization: `Basic ${good.key}` },
      { ...good.headers, 'x-api-key': `${t.config.KEY_PREFIX}_live_${'b'.repeat(32)}` },
    ];
    const restBody = (await (await rest('/api/v1/counties', {})).json()) as { error: { request_id: string } };
    for (const headers of cases) {
      for (const body of [initialize, call('list_counties')]) {
        const res = await post(body, headers);
        expect(res.status).toBe(401);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
        const json = (await res.json()) as { error: { request_id: string } };
        expect(json).toEqual({ error: { ...restBody.error, request_id: json.error.request_id } });
      }
    }
    const viaClient = connectMcp(base, {});
    await expect(viaClient).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(viaClient).rejects.toMatchObject({ code: 401 });
    // ?api_key= never authenticates, here either.
    const res = await fetch(new URL(`/api/mcp?api_key=${good.key}`, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(401);
  });

  it('refuses the Free Trial with 403 and the REST envelope; lets MCP Starter in (while REST tells it 403 rest_disabled)', async () => {
    const trial = await client('free_trial');
    const refused = await post(initialize, trial.headers);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'mcp_disabled',
      message: expect.stringMatching(/free_trial plan does not include the MCP endpoint/),
    });
    expect((await rest('/api/v1/counties', trial.headers)).status).toBe(200);
    await expect(connectMcp(base, trial.headers)).rejects.toMatchObject({ code: 403 });

    const starter = await client('mcp_starter');
    const mcp = await connectMcp(base, starter.headers);
    const result = await mcp.callTool({ name: 'get_county', arguments: { county: 'leon' } });
    expect(result.isError).toBeFalsy();
    await mcp.close();
    const restRefused = await rest('/api/v1/counties', starter.headers);
    expect(restRefused.status).toBe(403);
    expect(((await restRefused.json()) as { error: { code: string } }).error.code).toBe('rest_disabled');
  });

  it('charges 1 credit per tools/call from the bucket REST spends; initialize, tools/list, failed calls and get_usage cost nothing', async () => {
    const dev = await client('developer');
    const mcp = await connectMcp(base, dev.headers);
    await mcp.listTools();
    await mcp.ping();
    expect((await usage(dev.headers)).events_count).toBe(0);

    expect((await mcp.callTool({ name: 'list_counties', arguments: {} })).isError).toBeFalsy();
    expect((await mcp.callTool({ name: 'get_county', arguments: { county: 'duval' } })).isError).toBeFalsy();
    expect((await rest('/api/v1/counties/duval', dev.headers)).status).toBe(200);
    // Failed calls are given their credit back, like REST's 4xx.
    expect((await mcp.callTool({ name: 'get_county', arguments: { county: 'atlantis' } })).isError).toBe(true);
    expect((await mcp.callTool({ name: 'get_county', arguments: { county: 7 } })).isError).toBe(true);
    await expect(mcp.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool/);

    const viaTool = await mcp.callTool({ name: 'get_usage', arguments: {} });
    const reported = (viaTool.structuredContent as { data: { events_count: number; plan: string; monthly_quota: number } }).data;
    expect(reported).toMatchObject({ events_count: 3, plan: 'developer', monthly_quota: 10_000 });
    expect(texts(viaTool)[0]).toMatch(/^3 of 10000 credits used \(0\.03%\) on developer; resets /);
    expect(await usage(dev.headers)).toEqual(reported);
    await mcp.close();
  });

  it('puts the rate-limit headers of REST on MCP answers', async () => {
    const dev = await client('developer');
    const res = await post(call('list_counties'), dev.headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=59;t=\d+$/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    await res.body?.cancel();
  });

  it('counts every MCP request in the per-minute window REST uses, and answers a full window with 429, Retry-After and a JSON-RPC error', async () => {
    const c = await client('enterprise', { rpm: 6 });
    // connect = initialize + notifications/initialized + the GET for an event stream (405): 3 requests.
    const mcp = await connectMcp(base, c.headers); // + tools/list: 4
    expect((await rest('/api/v1/counties/leon', c.headers)).status).toBe(200); // 5
    expect((await mcp.callTool({ name: 'list_counties', arguments: {} })).isError).toBeFalsy(); // 6
    const limited = mcp.callTool({ name: 'list_counties', arguments: {} });
    await expect(limited).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(limited).rejects.toMatchObject({
      code: 429,
      message: expect.stringMatching(/Rate limit exceeded\. Retry after \d+ seconds\./),
    });

    const raw = await post(call('list_counties'), c.headers);
    expect(raw.status).toBe(429);
    const retryAfter = Number(raw.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await raw.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32029,
        message: `Rate limit exceeded. Retry after ${retryAfter} seconds.`,
        data: { code: 'rate_limited', request_id: expect.stringMatching(/^req_/), retry_after_seconds: retryAfter },
      },
    });
    // REST shares the window.
    expect((await rest('/api/v1/counties/leon', c.headers)).status).toBe(429);
    // Refused requests cost no credit: the two 200s (REST and MCP) did.
    await setClient(t.runtime.sql, c.id, { rpm: 100 });
    expect((await usage(c.headers)).events_count).toBe(2);
    await mcp.close();
  });

  it('answers exhausted credits without overage (MCP Starter) with 429 until the next month; free messages still answer', async () => {
    const c = await client('mcp_starter', { monthlyCredits: 2 });
    const mcp = await connectMcp(base, c.headers);
    expect((await mcp.callTool({ name: 'list_counties', arguments: {} })).isError).toBeFalsy();
    expect((await mcp.callTool({ name: 'get_county', arguments: { county: 'leon' } })).isError).toBeFalsy();
    await expect(mcp.callTool({ name: 'list_counties', arguments: {} })).rejects.toMatchObject({ code: 429 });

    const raw = await post(call('list_counties'), c.headers);
    expect(raw.status).toBe(429);
    const retryAfter = Number(raw.headers.get('retry-after'));
    expect(Math.abs(retryAfter - secondsToNextMonth(new Date()))).toBeLessThanOrEqual(5);
    const body = (await raw.json()) as { error: { code: number; data: { retry_after_seconds: number; details: { reason: string } } } };
    expect(body.error).toMatchObject({
      code: -32029,
      data: { retry_after_seconds: retryAfter, details: { reason: 'monthly_quota_exhausted' } },
    });
    // Listing, pinging and asking for usage cost nothing, so they still answer.
    expect((await mcp.listTools()).tools.length).toBe(TOOLS.length);
    const usageResult = await mcp.callTool({ name: 'get_usage', arguments: {} });
    expect((usageResult.structuredContent as { data: { events_count: number } }).data.events_count).toBe(2);
    await mcp.close();
  });

  it('charges concurrent calls exactly once each, and stops a bucket without overage at its last credit', async () => {
    const big = await client('enterprise');
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(call('get_county', { county: 'leon' }), big.headers)));
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200));
    await Promise.all(answers.map((r) => r.body?.cancel()));
    expect((await usage(big.headers)).events_count).toBe(40);

    const small = await client('mcp_starter', { monthlyCredits: 5, rpm: 1000 });
    const raced = await Promise.all(Array.from({ length: 20 }, () => post(call('get_county', { county: 'leon' }), small.headers)));
    const statuses = raced.map((r) => r.status);
    await Promise.all(raced.map((r) => r.body?.cancel()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('keeps tool errors readable under access too: a bad argument names itself', async () => {
    const dev = await client('pro');
    const mcp = await connectMcp(base, dev.headers);
    const result = await mcp.callTool({ name: 'list_sources', arguments: { limit: 0 } });
    expect(errorBody(result).error.details?.issues).toEqual([{ parameter: 'limit', message: 'must be an integer from 1 to 500' }]);
    await mcp.close();
  });
});
