import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { openRuntime, type Runtime } from '../../../../../services/process/runtime.ts';
import { type TestContext, testContext } from '../../../../helpers/context.ts';

/**
 * /docs as a newcomer meets it: the product's name, none of the renderer's branding, how to send a
 * key, and where MCP is with a client configuration to paste.
 */
describe('/docs', () => {
  let ctx: TestContext;
  let runtime: Runtime;
  let app: FastifyInstance;
  const get = (url: string) => app.inject({ method: 'GET', url });

  beforeAll(async () => {
    ctx = testContext(import.meta.url);
    runtime = await openRuntime(ctx.config);
    app = await buildApp(runtime);
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    ctx?.cleanupFiles();
  });

  it("is titled with the product's name and carries no third-party branding", async () => {
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<title>Tax Certificate Data Service[^<]*<\/title>/);
    // Asset file names still say swagger-ui; what a reader sees must not: no "Swagger UI"
    // title, none of its favicons, and its logo replaced (below).
    expect(page.body).not.toContain('Swagger UI');
    expect(page.body).not.toMatch(/favicon-(16|32)x(16|32)\.png/);
    // The icon is ours, served from the theme, and it is an image.
    const icon = page.body.match(/<link rel="icon"[^>]*href="([^"]+)"/)?.[1];
    expect(icon).toMatch(/\/theme\/favicon\.svg$/);
    const iconFile = await get(`/docs${icon!.slice(icon!.indexOf('/static/'))}`);
    expect(iconFile.statusCode).toBe(200);
    expect(iconFile.headers['content-type']).toBe('image/svg+xml');
    // The script that builds the page replaces the renderer's logo with our wordmark.
    const init = await get('/docs/static/swagger-initializer.js');
    expect(init.statusCode).toBe(200);
    const logo = init.body.match(/img\.src = 'data:image\/svg\+xml;base64,([^']+)'/)?.[1];
    expect(Buffer.from(logo ?? '', 'base64').toString()).toContain('Tax Certificate Data Service');
    // The renderer's own logo (an SVG with an inline <style> the page's CSP refuses) is never drawn.
    expect(init.body).toContain('Logo: () => null');
  });

  it('loads and names the document at /api/v1/openapi.json, the one /docs/json also serves', async () => {
    const init = await get('/docs/static/swagger-initializer.js');
    expect(init.body).toMatch(/"urls":\[\{"url":"\/api\/v1\/openapi\.json","name":"\/api\/v1\/openapi\.json"\}\]/);
    const published = await get('/api/v1/openapi.json');
    expect(published.statusCode).toBe(200);
    expect((await get('/docs/json')).json()).toEqual(published.json());
  });

  it('explains how to send a key and links the MCP endpoint with a client configuration', async () => {
    // The page renders the document /docs/json serves: its info.description is the text above the operations.
    const doc = (await get('/docs/json')).json() as { info: { title: string; description: string } };
    expect(doc.info.title).toBe('Tax Certificate Data Service');
    const text = doc.info.description;
    expect(text).toContain('Authorization: Bearer <your API key>');
    expect(text).toContain('X-API-Key: <your API key>');
    expect(text).toMatch(/\?api_key=.*not accepted/);
    expect(text).toContain('/api/mcp');
    expect(text).toMatch(/Streamable HTTP/);
    const config = JSON.parse(text.match(/```json\n([\s\S]+?)\n```/)![1]!) as {
      mcpServers: Record<string, { url: string; headers: Record<string, string> }>;
    };
    const server = Object.values(config.mcpServers)[0]!;
    expect(server.url).toMatch(/\/api\/mcp$/);
    expect(server.headers.Authorization).toMatch(/^Bearer /);
  });
});
