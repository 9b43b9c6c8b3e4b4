// @module-tag postgres
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createAccess } from '../../../../../services/api/access/access.ts';
import { buildApp } from '../../../../../services/api/app.ts';
import { InvalidParamsError } from '../../../../../services/api/errors.ts';
import { TOOLS } from '../../../../../services/api/mcp/tools.ts';
import { v1Routes } from '../../../../../services/api/routes/v1.ts';
import { validatorCompiler } from '../../../../../services/api/validation.ts';
import { createEndpoint } from '../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../services/control/feed/webhook-secrets.ts';
import type { Runtime } from '../../../../../services/process/runtime.ts';
import { apiKeyHeaders } from '../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';

/**
 * Every parameter of every /api/v1 route, walked from the schemas as v1.ts registers
 * them (so a route or parameter added later is walked too), on the real app and
 * control plane: SQLite, or PostgreSQL with TEST_DATABASE_URL. PostgreSQL answered a
 * NUL in sources' vendor or source_kind, or in a webhook endpoint id, with a 500 (its
 * text type refuses NUL; SQLite matched nothing and answered 200 or 404). Now every
 * string a caller sends, query or path, is refused by name when it holds a control
 * character, and every 400 says its problem in the product's words, not zod's.
 */

interface RouteSchemas {
  url: string;
  query: string[];
  path: string[];
}

/** The GET routes of the /api/v1 scope with their parameter names, registered exactly as buildApp registers them. */
async function registeredRoutes(runtime: Runtime): Promise<RouteSchemas[]> {
  const probe = Fastify();
  probe.setValidatorCompiler(validatorCompiler);
  probe.setSerializerCompiler(() => (data) => JSON.stringify(data));
  probe.decorate('access', createAccess(runtime));
  const routes: RouteSchemas[] = [];
  const names = (schema: unknown) => Object.keys((schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {});
  probe.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('GET')) return;
    routes.push({ url: route.url, query: names(route.schema?.querystring), path: names(route.schema?.params) });
  });
  await probe.register(v1Routes(runtime), { prefix: '/api/v1' });
  await probe.ready();
  await probe.close();
  return routes;
}

/** zod's own words ("Invalid input: expected number, received string", "Too big: ..."), never ours. */
const ZOD_WORDS = /^(Invalid|Too (big|small)|Unrecognized)|expected .+, received /;

describe('every parameter of every route: control characters refused by name, problems in our words', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let auth: Record<string, string> = {};
  let routes: RouteSchemas[];
  /** A valid value for each path parameter, per route prefix: the request reaches the route's own reading. */
  let pathValues: (url: string, name: string) => string;

  const get = (url: string) => app.inject({ method: 'GET', url, headers: auth });
  const fill = (route: RouteSchemas, except?: string) =>
    route.path.reduce(
      (url, name) => (name === except ? url : url.replace(`:${name}`, encodeURIComponent(pathValues(route.url, name)))),
      route.url,
    );

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    auth = await apiKeyHeaders(t.runtime);
    const clientId = Object.values(
      (await t.runtime.sql.get<Record<string, string>>("SELECT id FROM clients WHERE name = 'route tests enterprise'"))!,
    )[0]!;
    const endpoint = await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId,
      url: 'https://hooks.example.com/in',
      types: null,
      counties: null,
    });
    pathValues = (url, name) =>
      name === 'county'
        ? 'broward'
        : url.includes('/webhook-endpoints/')
          ? endpoint.endpoint.id
          : url.includes('/holders/')
            ? 'hld_x'
            : 'cert_00000000000000000000';
    routes = await registeredRoutes(t.runtime);
    app = await buildApp(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
  });

  it('walks every route, the control-plane ones among them', () => {
    const walked = routes.flatMap((r) => [...r.query.map((q) => `${r.url}?${q}`), ...r.path.map((p) => `${r.url} :${p}`)]);
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(walked).toEqual(
      expect.arrayContaining([
        '/api/v1/sources?vendor',
        '/api/v1/sources?source_kind',
        '/api/v1/webhook-endpoints/:id/deliveries :id',
        '/api/v1/webhook-endpoints/:id/deliveries?event_id',
        '/api/v1/certificates/:id :id',
      ]),
    );
  });

  it('a NUL in any query parameter is a 400 naming it, in the error envelope', async () => {
    for (const route of routes)
      for (const name of route.query) {
        const url = `${fill(route)}?${name}=%00`;
        const res = await get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        const { error } = res.json();
        expect(error).toMatchObject({ code: 'bad_request', request_id: res.headers['x-request-id'] });
        expect(error.details.issues, url).toContainEqual({
          parameter: name,
          message: 'must not contain control characters (U+0000 at character 1)',
        });
      }
  });

  it('a NUL in any path parameter is a 400 naming it', async () => {
    for (const route of routes)
      for (const name of route.path) {
        const url = fill(route, name).replace(`:${name}`, `x%00${name}`);
        const res = await get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json().error.details.issues, url).toEqual([
          { parameter: name, message: 'must not contain control characters (U+0000 at character 2)' },
        ]);
      }
  });

  it('every control character is refused, inside a value, in a list, C1 included; plain text and accents pass', async () => {
    for (const [value, code, at] of [
      ['lien%01port', '0001', 5],
      ['lienport%09', '0009', 9],
      ['%0Alienport', '000A', 1],
      ['lien%7Fport', '007F', 5],
      ['lien%C2%85port', '0085', 5],
      ['lien%C2%9Fport', '009F', 5],
    ] as const) {
      const res = await get(`/api/v1/sources?vendor=${value}`);
      expect(res.json().error?.details.issues, value).toEqual([
        { parameter: 'vendor', message: `must not contain control characters (U+${code} at character ${at})` },
      ]);
    }
    const list = await get('/api/v1/certificates/search?vendor=lienport,lien%00port&county=broward');
    // The position is in the text as sent, before it is split into values.
    expect(list.json().error.details.issues).toEqual([
      { parameter: 'vendor', message: 'must not contain control characters (U+0000 at character 14)' },
    ]);
    for (const plain of ['/api/v1/sources?vendor=lien%C2%A0port', '/api/v1/certificates/search?query=Pe%C3%B1a%20%E2%80%94%20Jos%C3%A9'])
      expect((await get(plain)).statusCode, plain).toBe(200);
  });

  it('the control plane answers 404 and 200 where it used to 500: an unknown endpoint, a vendor nobody has', async () => {
    expect((await get('/api/v1/webhook-endpoints/whe_nothing/deliveries')).statusCode).toBe(404);
    expect((await get('/api/v1/sources?vendor=nobody&source_kind=nothing')).statusCode).toBe(200);
  });

  it("no bad value of any query parameter is answered in zod's words", async () => {
    const bad = ['zzz', '-1', '99999999999', '1.5', 'true', '2024-02-30', 'a,b'];
    for (const route of routes)
      for (const name of route.query)
        for (const value of bad) {
          const url = `${fill(route)}?${name}=${value}`;
          const res = await get(url);
          if (res.statusCode !== 400) continue;
          for (const issue of res.json().error.details.issues as { parameter: string; message: string }[])
            expect(issue.message, `${url}: ${issue.parameter}`).not.toMatch(ZOD_WORDS);
        }
  });

  it('every MCP tool refuses a control character in any argument with the same problem', () => {
    for (const tool of TOOLS) {
      const properties = (tool.definition.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
      for (const [name, property] of Object.entries(properties)) {
        let error: unknown;
        try {
          tool.parse({ [name]: 'x\u0000' });
        } catch (err) {
          error = err;
        }
        expect(error, `${tool.name} ${name}`).toBeInstanceOf(InvalidParamsError);
        // A write's object field (a saved search's params) refuses any text, as its REST body does;
        // the rule reaches the text inside it, named params.<name> (the saved-search tests).
        const problem =
          property.type === 'object'
            ? expect.stringMatching(/^must be an object/)
            : 'must not contain control characters (U+0000 at character 2)';
        expect((error as InvalidParamsError).issues, `${tool.name} ${name}`).toContainEqual({ parameter: name, message: problem });
      }
    }
  });
});
