import { spawn } from 'node:child_process';
import type { Config } from '../config.ts';
import { redisAnswers } from './runtime.ts';

/**
 * A local Redis for `npm start` and the test run, as they start the local OpenSearch node: a
 * newcomer with redis-server installed but not running got "Redis does not answer" and a command
 * to type. When nothing answers at a loopback REDIS_URL without a password and redis-server is on
 * the PATH, it is started in the foreground of this process (no snapshots, no append-only file)
 * and stopped again by stop(); anything else is left to requireRedis to explain.
 */
export interface LocalRedis {
  /** True when this call started redis-server (then stop() stops it). */
  started: boolean;
  pid?: number;
  stop(): Promise<void>;
}

const NOTHING: LocalRedis = { started: false, stop: async () => {} };
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function ensureLocalRedis(config: Pick<Config, 'REDIS_URL'>, options: { command?: string } = {}): Promise<LocalRedis> {
  if (await redisAnswers(config.REDIS_URL)) return NOTHING;
  const url = new URL(config.REDIS_URL);
  // A remote, TLS or password-protected Redis is someone else's to run.
  if (url.protocol !== 'redis:' || !LOOPBACK.has(url.hostname) || url.password !== '' || url.username !== '') return NOTHING;
  const port = url.port === '' ? '6379' : url.port;
  const child = spawn(options.command ?? 'redis-server', ['--port', port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C on the terminal reaches npm start, which still needs Redis to
    // close its queues, and stops this server last.
    detached: true,
  });
  // redis-server logs to stdout; the last lines say why it did not start (a port in use).
  let output = '';
  const keep = (c: Buffer) => {
    output = (output + c.toString()).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Not installed: spawn reports ENOENT, and requireRedis says what to do.
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!spawned) return NOTHING;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  // It accepts connections within a few hundred milliseconds; ten seconds covers a loaded machine.
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break;
    if (await redisAnswers(config.REDIS_URL, 500)) return { started: true, pid: child.pid, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`redis-server on port ${port} did not start: ${output.trim().split('\n').at(-1) || 'no answer'}`);
}
