import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Secrets never reach a log line: key headers are censored and ?api_key= values masked in URLs.
 * A webhook signing secret is never handed to the logger; should an object carrying one be
 * logged by mistake (an endpoint with its `secret`, at the top or one level down), it is censored.
 */
const redact = {
  paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]', 'secret', '*.secret'],
  censor: '[redacted]',
};

/**
 * Masks the value of every query parameter whose name, decoded as a query-string parser decodes
 * it, is api_key or token: `api%5Fkey=` reaches Fastify's parser as api_key, and a pattern on the
 * raw text let a key through into the logs. token is the single-use link of the account page's
 * mail (/account/verify?token=, /account/reset?token=). Other parameters stay as sent.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const end = hash === -1 ? url.length : hash;
  const pairs = url.slice(q + 1, end).split('&');
  const masked = pairs.map((pair) => {
    const eq = pair.indexOf('=');
    return eq !== -1 && isKeyParameter(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
  });
  return `${url.slice(0, q + 1)}${masked.join('&')}${url.slice(end)}`;
}

/** A service URL as it may be printed: its password (Redis, OpenSearch behind basic auth) masked. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = 'redacted';
    return parsed.toString();
  } catch {
    return '[unparseable URL]';
  }
}

const SECRET_PARAMETERS = new Set(['api_key', 'token']);

/** Percent-decoded byte by byte, so a malformed sequence elsewhere in the name cannot hide it. */
function isKeyParameter(rawName: string): boolean {
  const name = rawName.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return SECRET_PARAMETERS.has(name.toLowerCase());
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request fields, with the URL's api_key masked (Fastify takes this serializer over its own). */
const serializers = {
  req: (req: LoggedRequest) => ({
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
};

/**
 * Logs go to stderr so that stdout stays free for command output (and for the one
 * JSON document of --json). Pretty output only on a terminal in development.
 */
export function createLogger(
  level: string,
  options: { name?: string; pretty?: boolean; nodeEnv?: 'development' | 'test' | 'production' } = {},
): Logger {
  const pretty = options.pretty ?? (process.stderr.isTTY === true && options.nodeEnv !== 'production');
  if (pretty) {
    return pino({
      name: options.name,
      level,
      redact,
      serializers,
      transport: { target: 'pino-pretty', options: { destination: 2, ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } },
    });
  }
  return pino({ name: options.name, level, redact, serializers }, pino.destination({ dest: 2, sync: false }));
}
