import { createServer, type Server, type Socket } from 'node:net';

export { freePort, freePortRun, heldPort } from '../../scripts/lib/free-port.ts';

/** A TCP server that accepts connections and never answers: a hung dependency. */
export async function blackHole(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, sockets };
}
