import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { buildApp } from './app.ts';

/** Builds the app on an open runtime and listens; the caller owns shutdown. */
export async function startServer(runtime: Runtime): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp(runtime);
  const { HOST, PORT } = runtime.config;
  await app.listen({ host: HOST, port: PORT });
  const host = HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST;
  return { app, url: `http://${host}:${PORT}` };
}
