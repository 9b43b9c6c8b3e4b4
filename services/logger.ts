import { pino, type Logger } from 'pino';

export type { Logger };

/** Secrets never reach a log line: key headers are censored and ?api_key= values masked in URLs. */
const redact = {
  paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'],
  censor: '[redacted]',
};

export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[redacted]');
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
