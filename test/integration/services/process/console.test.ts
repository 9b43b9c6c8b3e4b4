// @module-tag postgres
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv } from '../../../helpers/cli.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { freePort } from '../../../helpers/ports.ts';
import { until } from '../../../helpers/until.ts';

// On a terminal `taxcert start` prints the banner and one line per request (it once printed about
// 1,500 lines, with the progress bar glued onto log lines); without a terminal (or with LOG_LEVEL)
// the full structured logs stay. The terminal is a real pseudo-terminal from util-linux `script`.

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * Runs `taxcert start --no-demo`, asks /healthz twice once it answers, waits until `logged` says
 * the output shows those requests, then stops it.
 */
async function startAndAsk(env: NodeJS.ProcessEnv, port: number, tty: boolean, logged: (out: string) => boolean): Promise<string> {
  const command = [process.execPath, BIN, 'start', '--no-demo'];
  const child = tty
    ? spawn('script', ['-qfec', command.map(quote).join(' '), '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    : spawn(command[0] ?? '', command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    const deadline = Date.now() + 120_000;
    let ok = 0;
    while (ok < 2 && Date.now() < deadline) {
      const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) ok++;
      else await new Promise((r) => setTimeout(r, 250));
    }
    expect(ok, out).toBe(2);
    // A request's line is printed as its answer goes out: wait for it, then stop. If it never
    // comes, the test's own assertions say what the output lacks.
    await until(() => logged(out), 'the request lines', 10_000).catch(() => undefined);
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  return out;
}

/** The terminal's one line per /healthz request. */
const terminalLines = (out: string) =>
  out
    .replace(/\r/g, '')
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d GET \/healthz (200|503) \d+ms$/.test(l));

describe('taxcert start output', () => {
  let t: TestRuntime;
  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
  });
  afterAll(() => t.teardown());

  it('on a terminal: the banner, then one line per request, no structured log entries', async () => {
    const port = await freePort();
    const env = childEnv(t.config, { PORT: String(port) });
    delete env.LOG_LEVEL;
    const out = (await startAndAsk({ ...env, TERM: 'xterm' }, port, true, (o) => terminalLines(o).length >= 2)).replace(/\r/g, '');
    expect(out).toContain(`Tax certificate data service: http://127.0.0.1:${port}`);
    const requests = terminalLines(out);
    expect(requests.length, out).toBeGreaterThanOrEqual(2);
    expect(out).not.toMatch(/"level":|"msg":"request"/);
    // The banner stands after anything the start-up printed, on lines of its own.
    expect(out.indexOf('Tax certificate data service')).toBeLessThan(out.indexOf(requests[0] ?? '\u0000'));
  });

  it('without a terminal: full structured logs, one JSON entry per line', async () => {
    const port = await freePort();
    // Not NODE_ENV=test, whose app keeps request logging off.
    const env = childEnv(t.config, { PORT: String(port), NODE_ENV: 'development' });
    delete env.LOG_LEVEL;
    const out = await startAndAsk(env, port, false, (o) => o.includes('"msg":"request"'));
    const entries = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string });
    expect(
      entries.some((e) => e.msg === 'request'),
      out,
    ).toBe(true);
    expect(out).not.toMatch(/^\d\d:\d\d:\d\d GET /m);
  });
});
