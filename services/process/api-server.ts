/**
 * The API and its site, loaded only by the commands that serve them (start, serve). Fastify,
 * every route, MCP and the site were half of the CPU the CLI spent starting (1.4 s against
 * 0.7 s without them), paid by every operator command, `ingest --wait` beside a loading
 * worker included.
 */
export async function loadApiServer() {
  const [{ startServer }, { buildSite }] = await Promise.all([import('../api/server.ts'), import('../web/site.ts')]);
  return { startServer, buildSite };
}
