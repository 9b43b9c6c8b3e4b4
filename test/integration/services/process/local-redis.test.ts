// @module-tag postgres
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLocalRedis } from '../../../../services/process/local-redis.ts';
import { redisAnswers } from '../../../../services/process/runtime.ts';
import { BIN, childEnv } from '../../../helpers/cli.ts';
import { freePort } from '../../../helpers/ports.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

// npm start (and the test run) start a local Redis when none answers and redis-server is
// installed, and stop it again. Always on a spare port: the shared Redis on 6379 is never touched.

let t: TestRuntime;
beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
});
afterAll(() => t.teardown());

describe('ensureLocalRedis', () => {
  it('starts redis-server on a loopback REDIS_URL that does not answer, and stops it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    expect(await redisAnswers(url)).toBe(false);
    const redis = await ensureLocalRedis({ REDIS_URL: url });
    try {
      expect(redis.started).toBe(true);
      expect(await redisAnswers(url)).toBe(true);
      // Once one answers, nothing more is started, and that one is not this call's to stop.
      const again = await ensureLocalRedis({ REDIS_URL: url });
      expect(again.started).toBe(false);
      await again.stop();
      expect(await redisAnswers(url)).toBe(true);
    } finally {
      await redis.stop();
    }
    expect(await redisAnswers(url)).toBe(false);
  });

  it('leaves a remote or password-protected Redis, and a machine without redis-server, to the error that says what to do', async () => {
    const port = await freePort();
    expect((await ensureLocalRedis({ REDIS_URL: `redis://:secret@127.0.0.1:${port}` })).started).toBe(false);
    expect((await ensureLocalRedis({ REDIS_URL: 'redis://redis.invalid:6379' })).started).toBe(false);
    expect((await ensureLocalRedis({ REDIS_URL: `redis://127.0.0.1:${port}` }, { command: 'redis-server-not-installed' })).started).toBe(
      false,
    );
    expect(await redisAnswers(`redis://127.0.0.1:${port}`)).toBe(false);
  });
});

describe('taxcert start (npm start) without a running Redis', () => {
  it('starts one for the stack and stops it with the stack', async () => {
    const redisPort = await freePort();
    const url = `redis://127.0.0.1:${redisPort}`;
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'start', '--no-demo'], {
      env: childEnv(t.config, { PORT: String(port), REDIS_URL: url }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const banner = new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (stderr.includes('Ctrl-C stops everything.')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`taxcert start exited with ${code}:\n${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await banner;
      expect(stderr).toMatch(
        new RegExp(`taxcert: Redis did not answer at ${url}; started redis-server \\(pid \\d+\\) for this stack, stopped with it`),
      );
      expect(await redisAnswers(url)).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await redisAnswers(url)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 240_000);
});
