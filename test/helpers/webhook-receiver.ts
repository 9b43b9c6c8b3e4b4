import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP receiver on loopback for the webhook tests: it records every request (headers,
 * raw body, arrival time) and answers what `answer` says for the n-th request (0-based), after
 * an optional delay and, if given, once a promise of the test's settles. Nothing is mocked: the worker's real HTTP client talks to it.
 */

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  path: string;
}

export interface Answer {
  status: number;
  body?: string;
  delayMs?: number;
  /** Also answer no sooner than this settles (a request held until the test lets it go). */
  after?: Promise<unknown>;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The most requests it held unanswered at once. */
  maxOpen(): number;
  /** The webhook-id of each request, in arrival order. */
  ids(): string[];
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (n: number, request: Received) => Answer = () => ({ status: 200, body: 'ok' }),
  path = '/hooks',
): Promise<Receiver> {
  const received: Received[] = [];
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), path: req.url ?? '' };
      const n = received.length;
      received.push(request);
      const a = answer(n, request);
      open += 1;
      maxOpen = Math.max(maxOpen, open);
      const reply = () => {
        open -= 1;
        if (res.destroyed) return;
        res.writeHead(a.status, { 'content-type': 'text/plain', ...(a.headers ?? {}) });
        res.end(a.body ?? '');
      };
      if (a.after) void Promise.all([a.after, new Promise((r) => setTimeout(r, a.delayMs ?? 0))]).then(reply);
      else if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    received,
    maxOpen: () => maxOpen,
    ids: () => received.map((r) => String(r.headers['webhook-id'])),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface HungReceiver {
  url: (path: string) => string;
  /** Requests that arrived, in all. */
  requests(): number;
  /** Requests open now (the sender has not given up on them). */
  open(): number;
  /** The most open at once. */
  maxOpen(): number;
  close(): Promise<void>;
}

/** A receiver that reads every request and never answers it: each holds a sender's slot until its timeout. */
export async function startHungReceiver(): Promise<HungReceiver> {
  let requests = 0;
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    req.resume();
    // The request's own close comes once its body is read; the answer's, when the sender gives up.
    res.on('close', () => {
      open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests: () => requests,
    open: () => open,
    maxOpen: () => maxOpen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
