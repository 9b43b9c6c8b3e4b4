import { connect } from 'node:net';

export interface SlowRequest {
  /** The status of the server's answer (408 from Node's timeouts), or null if the socket closed without one. */
  answer: Promise<number | null>;
  /** Milliseconds from the first byte sent until the server closed the socket. */
  closed: Promise<number>;
  /** Stops sending and drops the socket (test cleanup). */
  destroy(): void;
}

/**
 * A client that holds a request open over a real socket: it sends `head` at once,
 * then one byte of `drip` every `everyMs` until the server answers or closes, so
 * the request never completes on its own: the attack of a key that trickles bytes to hold
 * requests open for ever, which the server's timeouts and per-client cap must refuse.
 */
export function slowRequest(base: URL, head: string, options: { drip?: string; everyMs?: number } = {}): SlowRequest {
  const started = Date.now();
  const socket = connect(Number(base.port), base.hostname);
  socket.on('error', () => undefined);
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<number | null>((resolve) => {
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (m) resolve(Number(m[1]));
    });
    socket.on('close', () => resolve(null));
  });
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Date.now() - started);
    });
  });
  socket.write(head);
  const drip = options.drip ?? ' ';
  timer = setInterval(() => {
    if (!socket.destroyed) socket.write(drip);
  }, options.everyMs ?? 100);
  return {
    answer,
    closed,
    destroy() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** The head of a POST /api/mcp promising a body of `length` bytes, with the key's Authorization. */
export function mcpPostHead(base: URL, key: string, length: number): string {
  return (
    `POST /api/mcp HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n{`
  );
}
