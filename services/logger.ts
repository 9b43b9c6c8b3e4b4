import { pino, type Logger } from 'pino';

export type { Logger };

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
      transport: { target: 'pino-pretty', options: { destination: 2, ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } },
    });
  }
  return pino({ name: options.name, level }, pino.destination({ dest: 2, sync: false }));
}
