import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/**
 * Our own CSS and script (no CDN), read once at start-up and served from /account/assets/.
 * Their addresses carry no version, so browsers may keep them for an hour only.
 */
const ASSETS = {
  'site.css': 'text/css; charset=utf-8',
  'copy.js': 'text/javascript; charset=utf-8',
} as const;

export function registerAssets(scope: FastifyInstance): void {
  for (const [name, type] of Object.entries(ASSETS)) {
    const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    scope.get(`/assets/${name}`, async (_request, reply) => reply.type(type).header('cache-control', 'public, max-age=3600').send(body));
  }
}
