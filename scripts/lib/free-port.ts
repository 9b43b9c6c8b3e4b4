import { createServer } from 'node:net';

/**
 * A port free a moment ago (nothing listens on it now): for a child to listen on, or an engine
 * that is down. Shared by the benchmarks and the tests (test/helpers/ports.ts), so there is one copy.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
