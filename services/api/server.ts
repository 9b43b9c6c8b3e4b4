import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { ApiDeps } from './deps.ts';
import { syncSavedSearches } from './routes/saved-searches/sync.ts';

/**
 * Builds the app on an open runtime and listens; the caller owns shutdown. `build` is what the
 * process serves: the API alone (buildApp), or the API with the account page (services/web
 * buildSite, which `taxcert serve` and `npm start` use).
 */
export async function startServer<D extends ApiDeps>(
  deps: D,
  build: (deps: D) => Promise<FastifyInstance> = buildApp,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await build(deps);
  try {
    await syncSavedSearches(deps);
  } catch (err) {
    // An engine that is down must not keep the API from answering what needs no engine (the feed, accounts).
    deps.logger.warn({ err: (err as Error).message }, 'saved-search queries not brought in line with the control plane at start');
  }
  const { HOST, PORT } = deps.config;
  await app.listen({ host: HOST, port: PORT });
  const host = HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST;
  return { app, url: `http://${host}:${PORT}` };
}
