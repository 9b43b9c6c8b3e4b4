// @module-tag postgres
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, runCli } from '../../../helpers/cli.ts';
import { freePort } from '../../../helpers/ports.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

// `taxcert serve` without NODE_ENV ran as development: test-mode billing, cookies without Secure
// and loopback webhooks, silently. Unset now means production; development is asked for and said.

let t: TestRuntime;
beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
});
afterAll(() => t.teardown());

/** The child environment of this file with NODE_ENV removed, as a deployment that forgot it. */
function withoutNodeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = childEnv(t.config, { LOG_LEVEL: 'info' });
  delete env.NODE_ENV;
  return { ...env, ...extra };
}

/** Starts `taxcert serve` on a free port, resolves with its stderr once it listens, and stops it. */
async function serveUntilListening(env: NodeJS.ProcessEnv, port: number, whileUp: () => Promise<void>): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const listening = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes('"api listening"')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`taxcert serve exited with ${code} before listening:\n${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    await listening;
    await whileUp();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    return stderr;
  } finally {
    child.kill('SIGKILL');
  }
}

describe('NODE_ENV', () => {
  it('npm start chooses development unless NODE_ENV is given', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toMatch(/ NODE_ENV=\$\{NODE_ENV:-development\} \.\/bin\/taxcert\.js start$/);
  });

  it('unset, taxcert serve is production: it refuses to start without what production needs', async () => {
    const r = await runCli(['serve', '--port', String(await freePort())], withoutNodeEnv());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('taxcert: KEY_HASH_SECRET: required when NODE_ENV=production\n');
  });

  it('unset, with production settings given, taxcert serve runs as production (Secure cookies) and says nothing of development', async () => {
    const port = await freePort();
    const env = withoutNodeEnv({
      KEY_HASH_SECRET: t.config.KEY_HASH_SECRET,
      WEBHOOK_SECRET_KEY: t.config.WEBHOOK_SECRET_KEY,
      PUBLIC_URL: 'https://api.example.com',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    let cookies: string[] = [];
    const stderr = await serveUntilListening(env, port, async () => {
      cookies = (await fetch(`http://127.0.0.1:${port}/account/signin`)).headers.getSetCookie();
    });
    const listening = stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; nodeEnv?: string })
      .find((e) => e.msg === 'api listening');
    expect(listening?.nodeEnv).toBe('production');
    expect(stderr).not.toContain('development');
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);
  });

  it('development is chosen explicitly, and the first line of output says so', async () => {
    const port = await freePort();
    let cookies: string[] = [];
    const stderr = await serveUntilListening(withoutNodeEnv({ NODE_ENV: 'development' }), port, async () => {
      cookies = (await fetch(`http://127.0.0.1:${port}/account/signin`)).headers.getSetCookie();
    });
    expect(stderr.split('\n')[0]).toMatch(
      /^taxcert: NODE_ENV=development \(test-mode billing, cookies without Secure, loopback webhook receivers\)/,
    );
    for (const cookie of cookies) expect(cookie).not.toMatch(/;\s*Secure/i);
  });
});
