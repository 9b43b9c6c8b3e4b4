import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/app.ts';
import type { SiteDeps } from './deps.ts';
import { registerFavicon } from './favicon.ts';
import { registerExploreEntry } from './explore-entry.ts';
import { registerHome } from './home.ts';
import { accountPages } from './register.ts';

/**
 * What the API process serves: the API (buildApp: /api/v1, /api/mcp, /docs, /healthz), the
 * account page under /account (the explorer's short address /explore leads there), and the
 * site's front page (/) and icon. The API does not know
 * the pages; the pages reuse the API's access layer (its ledger) and read functions.
 */
export async function buildSite(deps: SiteDeps): Promise<FastifyInstance> {
  const app = await buildApp(deps);
  await app.register(accountPages(deps), { prefix: '/account' });
  registerHome(app);
  registerExploreEntry(app);
  registerFavicon(app);
  return app;
}
