import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../services/config.ts';
import { openTestRuntime, type TestRuntime } from './runtime.ts';

export const BIN = fileURLToPath(new URL('../../bin/taxcert.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment that points a child process at this test file's prefix, database and services. */
export function childEnv(config: Config, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    OPENSEARCH_URL: config.OPENSEARCH_URL,
    REDIS_URL: config.REDIS_URL,
    DATABASE_PATH: config.DATABASE_PATH,
    // The control plane on PostgreSQL (TEST_DATABASE_URL): the child shares the test's database.
    ...(config.DATABASE_URL ? { DATABASE_URL: config.DATABASE_URL } : {}),
    INDEX_PREFIX: config.INDEX_PREFIX,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  return env;
}

/** Runs `taxcert ...args` with standard input closed, as CI and cron do; in cwd when given (another checkout's terminal). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000, cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`taxcert ${args.join(' ')} did not exit within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CliSuite {
  t: TestRuntime;
  /** The environment of every `taxcert` child this file spawns. */
  env: NodeJS.ProcessEnv;
  /** A temp folder for the files a test writes; removed by close(). */
  dir: string;
  close(): Promise<void>;
}

/** What every CLI test file opens in beforeAll: its runtime, the child environment and a temp folder. */
export async function openCliSuite(fileUrl: string, dirPrefix: string): Promise<CliSuite> {
  const t = await openTestRuntime(fileUrl);
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  return {
    t,
    env: childEnv(t.config),
    dir,
    async close() {
      rmSync(dir, { recursive: true, force: true });
      await t.teardown();
    },
  };
}
