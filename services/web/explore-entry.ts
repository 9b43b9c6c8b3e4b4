import type { FastifyInstance } from 'fastify';
import { EXPLORE_PATH } from './explore-view.ts';

/**
 * GET /explore: the short address of the explorer, which lives under /account with the session,
 * CSRF and headers of the account pages. It answers with a redirect there, the query string
 * kept, so a shared link to a search opens that search (after signing in, if need be).
 */
export function registerExploreEntry(app: FastifyInstance): void {
  app.get('/explore', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(query === -1 ? EXPLORE_PATH : `${EXPLORE_PATH}${request.url.slice(query)}`, 302);
  });
}
