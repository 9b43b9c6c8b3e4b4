// @module-tag postgres
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesAsTools } from '../../../../../services/api/mcp/tool.ts';
import { TOOLS } from '../../../../../services/api/mcp/tools.ts';
import { CertificateSearchFilters } from '../../../../../services/api/routes/certificates/params.ts';
import { SAVED_SEARCH_LIMITS } from '../../../../../services/api/writes/limits.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../helpers/access.ts';
import { connectMcp, errorBody, texts } from '../../../../helpers/mcp.ts';
import { type CertificatesApi, openCertificatesApi } from '../routes/certificates/seed.ts';

/**
 * The saved-search tools against their REST routes, through the SDK's client on a listening
 * server over the seeded certificates: the same answers for the same arguments, the same errors
 * (with tools named where REST names routes), one credit a call that succeeds and none for one
 * that fails.
 */

type Auth = { authorization: string };
type Args = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Row {
  id: string;
  name: string;
  params: Record<string, unknown>;
}

let api: CertificatesApi;
let base: string;
let owner: Auth;
let client: Client;
const say = routesAsTools(TOOLS);

beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  owner = await apiKeyHeaders(api.t.runtime, 'growth');
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  client = await connectMcp(base, owner);
});
afterAll(async () => {
  await client?.close();
  await deleteRateKeys(api.t.runtime, api.t.config.INDEX_PREFIX);
  await api?.close();
});

const rest = async (auth: Auth, method: Method, url: string, payload?: unknown) => {
  const res = await api.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { error?: { details?: unknown; message: string } } };
};
const usage = async (auth: Auth) => ((await rest(auth, 'GET', '/api/v1/account/usage')).body.data as { events_count: number }).events_count;

/** One tool call and the credits it took (GET /account/usage is free, so reading it changes nothing). */
async function call(name: string, args: Args, auth = owner, mcp = client) {
  const before = await usage(auth);
  const result = await mcp.callTool({ name, arguments: args });
  return {
    result,
    body: result.structuredContent as Record<string, unknown> & { meta: { request_id: string } },
    charged: (await usage(auth)) - before,
  };
}

/** A REST body with its request id replaced by the tool answer's (the only part that differs). */
const sameBody = (tool: { meta: { request_id: string } }, restBody: Record<string, unknown>) => ({
  ...restBody,
  meta: { ...(restBody.meta as object), request_id: tool.meta.request_id },
});

describe('the saved-search MCP tools', () => {
  it('publishes params as every filter of the search, and write hints from the REST method', async () => {
    const { tools } = await client.listTools();
    const create = tools.find((t) => t.name === 'create_saved_search')!;
    const params = create.inputSchema.properties?.params as { type: string; properties: Record<string, { anyOf: { type: string }[] }> };
    expect(params.type).toBe('object');
    expect(Object.keys(params.properties)).toEqual(Object.keys(CertificateSearchFilters.shape));
    // A list as an array or text, a number as itself or as text: what the search's reading takes.
    expect(params.properties.county!.anyOf.map((a) => a.type)).toEqual(['array', 'string', 'string']);
    expect(params.properties.face_min!.anyOf.map((a) => a.type)).toEqual(['number', 'string', 'array']);
    expect(create.inputSchema.required).toEqual(['name', 'params']);
    const hints = Object.fromEntries(
      tools.filter((t) => /saved_search/.test(t.name)).map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint]]),
    );
    expect(hints).toEqual({
      create_saved_search: [false, false],
      list_saved_searches: [true, false],
      get_saved_search: [true, false],
      update_saved_search: [false, true],
      delete_saved_search: [false, true],
      saved_search_matches: [true, false],
    });
  });

  it('creates, lists, reads and matches as REST does, one credit each; matches are /matches and /certificates/search', async () => {
    const made = await call('create_saved_search', {
      name: '  Broward, big  ',
      params: { county: 'broward,alachua', face_min: '500', redeemed: 'false', tax_year: [2022, '2023'] },
    });
    expect(made.result.isError, texts(made.result)[0]).toBeFalsy();
    expect(made.charged).toBe(1);
    const created = made.body.data as Row;
    expect(created).toMatchObject({
      name: 'Broward, big',
      params: { county: ['broward', 'alachua'], face_min: 500, redeemed: false, tax_year: [2022, 2023] },
    });
    expect(created.id).toMatch(/^ss_[A-Za-z0-9_-]{16}$/);
    expect(texts(made.result)[0]).toBe(`Saved search ${created.id} "Broward, big" created.`);

    const listed = await call('list_saved_searches', {});
    expect(listed.charged).toBe(1);
    expect(listed.body).toEqual(sameBody(listed.body, (await rest(owner, 'GET', '/api/v1/saved-searches')).body));
    expect((listed.body.data as Row[]).map((s) => s.id)).toContain(created.id);
    const paged = await call('list_saved_searches', { limit: '1', offset: 0 });
    expect(paged.body).toEqual(sameBody(paged.body, (await rest(owner, 'GET', '/api/v1/saved-searches?limit=1&offset=0')).body));

    const one = await call('get_saved_search', { id: created.id });
    expect(one.charged).toBe(1);
    expect(one.body.data).toEqual(created);
    expect(one.body).toEqual(sameBody(one.body, (await rest(owner, 'GET', `/api/v1/saved-searches/${created.id}`)).body));

    for (const [args, query] of [
      [{}, ''],
      [{ sort: 'face_desc', limit: 10, facets: ['county', 'status'] }, 'sort=face_desc&limit=10&facets=county,status'],
      [{ sort: 'face_asc', offset: '3', limit: '4' }, 'sort=face_asc&offset=3&limit=4'],
    ] as [Args, string][]) {
      const matches = await call('saved_search_matches', { id: created.id, ...args });
      expect(matches.result.isError, texts(matches.result)[0]).toBeFalsy();
      expect(matches.charged).toBe(1);
      const viaRest = await rest(owner, 'GET', `/api/v1/saved-searches/${created.id}/matches?${query}`);
      expect(viaRest.status).toBe(200);
      expect(matches.body).toEqual(sameBody(matches.body, viaRest.body));
      const filters = 'county=broward,alachua&face_min=500&redeemed=false&tax_year=2022,2023';
      const search = await rest(owner, 'GET', `/api/v1/certificates/search?${[filters, query].filter(Boolean).join('&')}`);
      expect(matches.body).toEqual(sameBody(matches.body, search.body));
      expect((matches.body.data as unknown[]).length, query).toBeGreaterThan(0);
    }
  });

  it('renames and refilters as PATCH does; a change of nothing is refused in REST words, for no credit', async () => {
    const { id } = (await rest(owner, 'POST', '/api/v1/saved-searches', { name: 'start', params: { county: 'duval' } })).body.data as Row;
    const renamed = await call('update_saved_search', { id, name: 'Duval' });
    expect(renamed.charged).toBe(1);
    expect(renamed.body.data).toMatchObject({ id, name: 'Duval', params: { county: ['duval'] } });
    expect(texts(renamed.result)[0]).toBe(`Saved search ${id} "Duval" updated.`);
    const refiltered = await call('update_saved_search', { id, params: { status: 'sold' } });
    expect(refiltered.body.data).toMatchObject({ name: 'Duval', params: { status: ['sold'] } });
    expect(refiltered.body.data).toEqual((await rest(owner, 'GET', `/api/v1/saved-searches/${id}`)).body.data);

    const nothing = await call('update_saved_search', { id });
    const restNothing = await rest(owner, 'PATCH', `/api/v1/saved-searches/${id}`, {});
    expect(restNothing.status).toBe(400);
    expect(nothing.result.isError).toBe(true);
    expect(nothing.charged).toBe(0);
    expect(errorBody(nothing.result).error.details).toEqual(restNothing.body.error!.details);
    // A body field is read as REST reads a body: JSON as it is, not a query string's array of one.
    const listName = await call('update_saved_search', { id, name: ['Duval'] });
    const restListName = await rest(owner, 'PATCH', `/api/v1/saved-searches/${id}`, { name: ['Duval'] });
    expect(restListName.status).toBe(400);
    expect(errorBody(listName.result).error.details).toEqual(restListName.body.error!.details);
    expect(texts(listName.result)[0]).toBe('Invalid arguments for update_saved_search:\n- name: must be text');
  });

  it('deletes once; then get, matches, update and delete are not_found as on REST, for no credit', async () => {
    const { id } = (await rest(owner, 'POST', '/api/v1/saved-searches', { name: 'to go', params: {} })).body.data as Row;
    const gone = await call('delete_saved_search', { id });
    expect(gone.charged).toBe(1);
    expect(gone.body.data).toEqual({ id, deleted: true });
    expect(texts(gone.result)[0]).toBe(`Saved search ${id} deleted.`);

    const restGet = await rest(owner, 'GET', `/api/v1/saved-searches/${id}`);
    expect(restGet.status).toBe(404);
    for (const [name, args] of [
      ['get_saved_search', { id }],
      ['saved_search_matches', { id }],
      ['update_saved_search', { id, name: 'back' }],
      ['delete_saved_search', { id }],
    ] as [string, Args][]) {
      const missing = await call(name, args);
      expect(missing.result.isError, name).toBe(true);
      expect(missing.charged, name).toBe(0);
      const error = errorBody(missing.result).error;
      expect(error.code).toBe('not_found');
      // REST's words, with the tool named where REST names its route.
      expect(error.message).toBe(say(restGet.body.error!.message));
      expect(texts(missing.result)[0]).toBe(`not_found: no saved search "${id}"; the list_saved_searches tool lists yours`);
    }
  });

  it("answers another client's saved search as not_found on every tool, and changes nothing", async () => {
    const other = await apiKeyHeaders(api.t.runtime, 'growth');
    const theirs = (await rest(other, 'POST', '/api/v1/saved-searches', { name: 'theirs', params: { county: 'alachua' } })).body
      .data as Row;
    const restGet = await rest(owner, 'GET', `/api/v1/saved-searches/${theirs.id}`);
    expect(restGet.status).toBe(404);
    for (const [name, args] of [
      ['get_saved_search', { id: theirs.id }],
      ['saved_search_matches', { id: theirs.id }],
      ['update_saved_search', { id: theirs.id, name: 'mine now' }],
      ['delete_saved_search', { id: theirs.id }],
    ] as [string, Args][]) {
      const refused = await call(name, args);
      expect(refused.charged, name).toBe(0);
      expect(errorBody(refused.result).error, name).toEqual({
        ...(restGet.body.error as object),
        message: say(restGet.body.error!.message),
        request_id: errorBody(refused.result).error.request_id,
      });
    }
    expect((await rest(other, 'GET', `/api/v1/saved-searches/${theirs.id}`)).body.data).toEqual(theirs);
    const listed = await call('list_saved_searches', {});
    expect((listed.body.data as Row[]).map((s) => s.id)).not.toContain(theirs.id);
  });

  it('names each bad param params.<name> with the search words REST gives, creates nothing and charges nothing', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'growth');
    const mcp = await connectMcp(base, auth);
    try {
      const body = {
        name: 'bad',
        params: { county: 'atlantis', face_min: -3, sale_after: '2024-02-30', colour: 'red', sort: 'face_desc' },
      };
      const bad = await call('create_saved_search', body, auth, mcp);
      const restBad = await rest(auth, 'POST', '/api/v1/saved-searches', body);
      expect(restBad.status).toBe(400);
      expect(bad.result.isError).toBe(true);
      expect(bad.charged).toBe(0);
      const issues = errorBody(bad.result).error.details!.issues!;
      expect(issues.map((i) => i.parameter).sort()).toEqual(
        ['params.colour', 'params.face_min', 'params.sale_after', 'params.sort'].sort(),
      );
      expect(errorBody(bad.result).error.details).toEqual(JSON.parse(say(JSON.stringify(restBad.body.error!.details))));
      expect(texts(bad.result)[0]).toContain('- params.sort: is not part of a saved search; give it to the saved_search_matches tool');
      // A county slug the registry does not know, alone: the search's own county check.
      const county = await call('create_saved_search', { name: 'x', params: { county: 'atlantis' } }, auth, mcp);
      expect(texts(county.result)[0]).toBe(
        'Invalid arguments for create_saved_search:\n- params.county: unknown county slug "atlantis"; the list_counties tool lists the 67 county slugs',
      );
      const control = await call('create_saved_search', { name: 'x', params: { query: 'a\u0007b' } }, auth, mcp);
      expect(errorBody(control.result).error.details!.issues).toEqual([
        { parameter: 'params.query', message: 'must not contain control characters (U+0007 at character 2)' },
      ]);
      const shapes = await call('create_saved_search', { name: 'x', params: 'county=lee', colour: 1 }, auth, mcp);
      expect(errorBody(shapes.result).error.details!.issues!.map((i) => i.parameter)).toEqual(['params', 'colour']);
      const missing = await call('create_saved_search', {}, auth, mcp);
      expect(errorBody(missing.result).error.details!.issues!.map((i) => i.parameter)).toEqual(['name', 'params']);
      expect((await rest(auth, 'GET', '/api/v1/saved-searches')).body.pagination).toMatchObject({ total: 0 });
    } finally {
      await mcp.close();
    }
  });

  it("refuses a creation past the plan's limit with REST's limit_reached, for no credit", async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'developer');
    const limit = SAVED_SEARCH_LIMITS.developer;
    for (let i = 0; i < limit; i++)
      expect((await rest(auth, 'POST', '/api/v1/saved-searches', { name: `s${i}`, params: {} })).status).toBe(201);
    const mcp = await connectMcp(base, auth);
    try {
      const refused = await call('create_saved_search', { name: 'one more', params: {} }, auth, mcp);
      const restRefused = await rest(auth, 'POST', '/api/v1/saved-searches', { name: 'one more', params: {} });
      expect(restRefused.status).toBe(403);
      expect(refused.charged).toBe(0);
      expect(errorBody(refused.result).error).toEqual({
        ...(restRefused.body.error as object),
        request_id: errorBody(refused.result).error.request_id,
      });
      expect(errorBody(refused.result).error).toMatchObject({
        code: 'limit_reached',
        details: { resource: 'saved_searches', limit, plan: 'developer' },
      });
      expect(texts(refused.result)[0]).toMatch(/^limit_reached: you already have 10 saved searches, .*delete one first$/);
    } finally {
      await mcp.close();
    }
  });
});
