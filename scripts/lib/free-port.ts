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

/**
 * A port held by a listener until `release()`: for a server that must know its own address
 * (a mailed link's origin) long before it listens. While held, no outgoing connection of this
 * machine is given it as its local port, so the seconds between choosing and listening are safe.
 */
export async function heldPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  // A holder forgotten after a failed setup must not keep the process alive.
  server.unref();
  return { port: address.port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Whether nothing listens on the port now. */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (free) await new Promise<void>((resolve) => server.close(() => resolve()));
  return free;
}

/** The first of `count` consecutive free ports (a local cluster's nodes take PORT, PORT+1, ...). */
export async function freePortRun(count: number): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const first = await freePort();
    if (first + count > 65535) continue;
    let all = true;
    for (let i = 1; i < count && all; i++) all = await isFree(first + i);
    if (all) return first;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
