import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { buildApp } from './app.ts';
import type { ApiDeps } from './deps.ts';

/** Builds the app on an open runtime and listens; the caller owns shutdown. */
export async function startServer(
  runtime: Runtime,
  options: Pick<ApiDeps, 'requestLine'> = {},
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp({ ...runtime, ...options });
  const { HOST, PORT } = runtime.config;
  await app.listen({ host: HOST, port: PORT });
  const host = HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST;
  return { app, url: `http://${host}:${PORT}` };
}
