import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { RESPONSE_BODY_BYTES } from '../../services/control/feed/webhook-attempts.ts';
import { type AddressPolicy, isAllowedAddress } from '../../services/domain/webhook-address.ts';
import { literalAddress } from '../../services/domain/webhook-url.ts';
import { AddressNotAllowedError, guardedLookup, type Resolve } from './guarded-lookup.ts';

/**
 * One POST to a receiver. Keep-alive agents, so a busy endpoint costs one
 * connection, not one per event. Redirects are never followed (http.request does not): a 3xx is
 * an answer like any other non-2xx. The whole exchange is bounded by the timeout; the answer's
 * first 1 KB is kept, the rest read and dropped (up to a limit) so the connection can be reused.
 */

export interface SendResult {
  startedAt: string;
  durationMs: number;
  /** The receiver's status, or null when no answer came. */
  httpStatus: number | null;
  /** Why no answer came (timeout, refused, reset, address not allowed), else null. */
  error: string | null;
  responseBody: string | null;
}

export interface Sender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
  close(): void;
}

export interface SenderOptions {
  timeoutMs: number;
  policy: AddressPolicy;
  /** Name resolution (default: the system's); every address it gives is judged by the policy. */
  resolve?: Resolve;
}

/** Past this much of an answer the connection is dropped instead of drained. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

class TimeoutError extends Error {
  override name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
}

/** A network failure as one short line for the attempt log. */
export function describeNetworkError(err: unknown, timeoutMs: number): string {
  if (err instanceof AddressNotAllowedError) return err.message;
  if (err instanceof TimeoutError) return `timeout: no complete answer within ${timeoutMs} ms`;
  const code = (err as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'DNS lookup failed (temporary)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    EPIPE: 'connection closed while sending',
  };
  if (code && known[code]) return known[code];
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS error: ${code}`;
  return code ? `${code}: ${(err as Error).message}` : String((err as Error)?.message ?? err);
}

export function createSender(options: SenderOptions): Sender {
  const lookup = guardedLookup(options.policy, options.resolve);
  // Endpoint URLs, parsed once each (a URL object is only read by http.request).
  const parsed = new Map<string, URL>();
  // A URL's literal address is judged once: the judgement cannot change, and it costs a few parses.
  const literals = new Map<string, boolean>();
  const literalAllowed = (address: string) => {
    let allowed = literals.get(address);
    if (allowed === undefined) {
      allowed = isAllowedAddress(address, options.policy);
      if (literals.size > 10_000) literals.clear();
      literals.set(address, allowed);
    }
    return allowed;
  };
  const agents = {
    http: new HttpAgent({ keepAlive: true, lookup }),
    https: new HttpsAgent({ keepAlive: true, lookup }),
  };

  function once(
    url: URL,
    body: string,
    headers: Record<string, string>,
    deadline: number,
  ): Promise<{ res: IncomingMessage | null; req: ClientRequest; err?: unknown; text?: string }> {
    return new Promise((resolve) => {
      const isHttps = url.protocol === 'https:';
      const req = (isHttps ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        agent: isHttps ? agents.https : agents.http,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'taxcert-webhooks/1',
        },
      });
      const timer = setTimeout(() => req.destroy(new TimeoutError()), Math.max(0, deadline - Date.now()));
      let settled = false;
      const done = (value: { res: IncomingMessage | null; err?: unknown; text?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...value, req });
      };
      req.on('error', (err) => done({ res: null, err }));
      req.on('response', (res) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (keptBytes < RESPONSE_BODY_BYTES) {
            const part = chunk.subarray(0, RESPONSE_BODY_BYTES - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          // A receiver streaming a large answer is not read to its end: the socket goes instead.
          if (seen > DRAIN_LIMIT_BYTES) res.destroy();
        });
        const finish = () => done({ res, text: Buffer.concat(kept).toString('utf8') });
        res.on('end', finish);
        res.on('close', finish);
        // The status is known; a body cut short by the timer still counts as this answer.
        res.on('error', finish);
      });
      req.end(body);
    });
  }

  return {
    async send(target, body, headers) {
      const started = Date.now();
      const startedAt = new Date(started).toISOString();
      const result = (httpStatus: number | null, error: string | null, responseBody: string | null): SendResult => ({
        startedAt,
        durationMs: Date.now() - started,
        httpStatus,
        error,
        responseBody,
      });
      const url = parsed.get(target) ?? new URL(target);
      if (!parsed.has(target)) {
        if (parsed.size > 10_000) parsed.clear();
        parsed.set(target, url);
      }
      // A literal address is connected to without any lookup, so it is checked here.
      const literal = literalAddress(url.hostname);
      if (literal !== null && !literalAllowed(literal)) return result(null, new AddressNotAllowedError(literal, literal).message, null);
      const deadline = started + options.timeoutMs;
      let answer = await once(url, body, headers, deadline);
      // A kept-alive socket the receiver closed while idle fails before any answer: the request
      // never reached it, so it goes again once on a fresh connection (Node's own advice).
      if (!answer.res && answer.req.reusedSocket && (answer.err as NodeJS.ErrnoException)?.code === 'ECONNRESET' && Date.now() < deadline)
        answer = await once(url, body, headers, deadline);
      if (!answer.res) return result(null, describeNetworkError(answer.err, options.timeoutMs), null);
      return result(answer.res.statusCode ?? null, null, answer.text ?? '');
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
