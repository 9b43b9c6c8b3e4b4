import type { FastifyInstance } from 'fastify';

/**
 * Every answer to a keyed request (the /api/v1 scope and /api/mcp, errors and
 * CSV included) says not to keep it and not to guess its type:
 * an answer holds one customer's data and balance, so no shared cache or browser
 * history may keep it, and a CSV cell or an echoed parameter must never be sniffed
 * into HTML. One onSend hook at app level, so a 404 inside /api/v1 and the MCP
 * endpoint (outside the /api/v1 scope) get them as well. Public answers (/healthz,
 * /docs, the document) are left to cache as they may.
 */
const PUBLIC_PATHS = new Set(['/api/v1/openapi.json']);

export function registerKeyedHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isKeyedPath(request.url)) return payload;
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    // The MCP transport answers a web Response whose own headers Fastify applies after this
    // hook (its event streams say no-cache), so they are set on the Response too.
    if (payload instanceof Response) {
      const transform = payload.headers.get('cache-control')?.includes('no-transform');
      payload.headers.set('cache-control', transform ? 'no-store, no-transform' : 'no-store');
      payload.headers.set('x-content-type-options', 'nosniff');
    }
    return payload;
  });
}

export function isKeyedPath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  if (PUBLIC_PATHS.has(path)) return false;
  return path === '/api/v1' || path.startsWith('/api/v1/') || path === '/api/mcp' || path.startsWith('/api/mcp/');
}
