import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/**
 * Our own CSS and script (no CDN), read once at start-up and served from /account/assets/.
 * Their addresses carry no version, so browsers may keep them for an hour only.
 */
const ASSETS = {
  'site.css': 'text/css; charset=utf-8',
  'copy.js': 'text/javascript; charset=utf-8',
  'explore.css': 'text/css; charset=utf-8',
  'explore-charts.js': 'text/javascript; charset=utf-8',
} as const;

/**
 * The explorer's charting library, served from its installed package (our origin, no CDN): the
 * UMD build defines one global, Chart, which explore-charts.js draws with.
 */
const PACKAGE_ASSETS = {
  'chart.umd.min.js': { module: 'chart.js', file: 'chart.umd.min.js', type: 'text/javascript; charset=utf-8' },
} as const;

export function registerAssets(scope: FastifyInstance): void {
  for (const [name, type] of Object.entries(ASSETS)) {
    const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    scope.get(`/assets/${name}`, async (_request, reply) => reply.type(type).header('cache-control', 'public, max-age=3600').send(body));
  }
  for (const [name, { module, file, type }] of Object.entries(PACKAGE_ASSETS)) {
    // The package exports only its modules; its builds sit beside its main file (dist/).
    const body = readFileSync(join(dirname(require.resolve(module)), file));
    scope.get(`/assets/${name}`, async (_request, reply) => reply.type(type).header('cache-control', 'public, max-age=3600').send(body));
  }
}
