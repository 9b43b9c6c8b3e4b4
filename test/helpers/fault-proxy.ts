import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server in front of the app that passes requests through, except the ones a test
 * tells it to fail: answer a status itself before the app sees the request (`refuse`), pass the
 * request on and then answer the status instead of the app's answer (`lose`: the write happened,
 * its answer did not arrive), cut the connection (`drop`), or never answer (`stall`: the
 * connection stays open until the client gives up). Every request and what it was answered is
 * recorded.
 */

export type Fault = { kind: 'refuse' | 'lose'; status: number } | { kind: 'drop' | 'stall' };

export interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  /** What the client received: the fault's status, or the app's. */
  status: number;
  /** The X-Request-Id of the app's answer, when the app answered. */
  requestId: string | undefined;
  at: number;
}

export interface FaultProxy {
  url: string;
  seen: Seen[];
  /** The next request whose `METHOD path` starts with `match` gets `fault`, once. */
  failNext(match: string, fault: Fault): void;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const faults: { match: string; fault: Fault }[] = [];
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    const line = `${req.method} ${req.url}`;
    const at = faults.findIndex((f) => line.startsWith(f.match));
    const fault = at >= 0 ? faults.splice(at, 1)[0]!.fault : undefined;
    const record = (status: number, requestId?: string) =>
      seen.push({
        method: req.method!,
        url: req.url!,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        status,
        requestId,
        at: Date.now(),
      });
    const payload = await body(req);
    if (fault?.kind === 'drop') {
      record(0);
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'stall') {
      record(0);
      return;
    }
    if (fault?.kind === 'refuse') {
      record(fault.status);
      res.writeHead(fault.status, { 'content-type': 'text/plain' }).end('refused by the test proxy');
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'connection')) as Record<
      string,
      string
    >;
    const answer = await fetch(target + req.url, { method: req.method, headers, body: payload });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const requestId = answer.headers.get('x-request-id') ?? undefined;
    if (fault?.kind === 'lose') {
      record(fault.status, requestId);
      res.writeHead(fault.status, { 'content-type': 'text/plain' }).end('answer lost by the test proxy');
      return;
    }
    record(answer.status, requestId);
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection')
        out[name] = value;
    });
    res.writeHead(answer.status, out).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    failNext: (match, fault) => faults.push({ match, fault }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
