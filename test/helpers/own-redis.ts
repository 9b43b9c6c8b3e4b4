import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A private redis-server for tests that stop or pause Redis: the shared one on 6379
 * is never touched. Port from 6390 up, the first one free.
 */
export interface OwnRedis {
  url: string;
  port: number;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  let port = 6390 + Math.floor(Math.random() * 50);
  while (!(await isFree(port))) port += 1;
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
    stdio: 'ignore',
  });
  // Wait until it accepts connections.
  for (let i = 0; i < 100 && (await isFree(port)); i++) await new Promise((r) => setTimeout(r, 50));
  let stopped = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      if (stopped) return;
      stopped = true;
      child.kill('SIGCONT');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
