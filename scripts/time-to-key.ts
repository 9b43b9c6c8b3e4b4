/**
 * Time from sign-up to a working key on `npm start`'s demo (target: under a minute), a
 * script, not a test. It starts `taxcert start` (the demo data, the worker, the API with the
 * account page) under a throwaway prefix and data folder, then drives Debian's Chromium as a
 * new customer would: sign up, take the confirmation link npm start prints (no SMTP_URL: the
 * mail goes to the outbox), confirm, create a key, and call the API with it until it answers
 * 200. Each step is timed; the typing is the browser's, so a person adds their reading and
 * typing time to these figures.
 *
 * It also times sign-in answers for known addresses (the runs' customers) with a wrong password
 * and for unknown addresses (the same timing either way, so timing tells no one which
 * addresses have accounts), alternating, at most 8 per
 * known address and 48 in all, under the sign-in throttles (10 per address, 50 per client in
 * 15 minutes). On a busy machine a few samples differ by tens of milliseconds either way; the
 * medians of many are what to compare.
 *
 *   npx tsx scripts/time-to-key.ts --runs 3
 *
 * Uses OPENSEARCH_URL (default http://127.0.0.1:9200) and REDIS_URL; everything it made is
 * removed afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { chromium } from 'playwright-core';
import { loadConfig } from '../services/config.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { dropScratch } from './lib/drop-scratch.ts';
import { freePort } from './lib/free-port.ts';

const opts = new Command('time-to-key')
  .option('--runs <n>', 'new customers, one after the other', '3')
  .option('--signins <n>', 'timed sign-ins of each kind (known address, unknown address); at most 8 a run, 24 in all', '24')
  .option('--json', 'print the result as JSON')
  .parse()
  .opts<{ runs: string; signins: string; json?: boolean }>();

const BIN = fileURLToPath(new URL('../bin/taxcert.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'time-to-key-'));
const prefix = `ttk-${process.pid}`;
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
// No SMTP_URL, as on a fresh checkout: the mail goes to the outbox and its link to the terminal.
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'SMTP_URL')),
  NODE_ENV: 'development',
  OPENSEARCH_URL: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200',
  DATABASE_PATH: join(dir, 'taxcert.db'),
  INDEX_PREFIX: prefix,
  PORT: String(port),
  LOG_LEVEL: 'warn',
};
const config = loadConfig(env);

let stderr = '';
let child: ChildProcess | null = null;
const since = (t: number) => Math.round(performance.now() - t);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | null | Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${stderr.slice(-2000)}`);
    await wait(20);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const started = performance.now();
  child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  await until('npm start banner', () => (stderr.includes('Demo sign-in:') ? true : null), 900_000);
  const stackMs = since(started);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  const runs: Record<string, number>[] = [];
  try {
    for (let run = 1; run <= Number(opts.runs); run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const email = `customer-${run}-${process.pid}@example.com`;
      const steps: Record<string, number> = {};
      const t0 = performance.now();
      let t = t0;
      const step = (name: string) => {
        steps[name] = since(t);
        t = performance.now();
      };

      await page.goto(`${url}/account/signup`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Organisation').fill(`Customer ${run}`);
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      step('sign_up_ms');

      // The link as npm start prints it on the terminal.
      const pattern = new RegExp(`Mail to ${email.replace(/[.]/g, '\\.')} .*Confirm your email: (\\S+)`);
      const link = await until('the confirmation link on the terminal', () => pattern.exec(stderr)?.[1] ?? null, 30_000);
      step('mail_ms');

      await page.goto(link);
      await page.getByLabel('Password').fill('a long and unguessable passphrase');
      await page.getByRole('button', { name: 'Confirm my email address' }).click();
      await page.waitForURL(/\/account\/keys/);
      step('confirm_ms');

      await page.getByLabel('Name').fill('first key');
      await page.getByRole('button', { name: 'Create the key' }).click();
      const key = await page.getByRole('textbox', { name: /first key/ }).inputValue();
      step('create_key_ms');

      const status = await until(
        'a 200 with the new key',
        async () => {
          const res = await fetch(`${url}/api/v1/certificates/search?county=miami-dade&limit=2`, {
            headers: { authorization: `Bearer ${key}` },
          });
          return res.status === 200 ? 200 : null;
        },
        30_000,
      );
      step('first_call_ms');
      runs.push({ run, ...steps, total_ms: since(t0), status });
      await context.close();
    }
  } finally {
    await browser.close();
  }

  // Sign-in answer times: a known address with a wrong password, and unknown addresses, alternating.
  const known: number[] = [];
  const unknown: number[] = [];
  const jar = new Map<string, string>();
  const signIn = async (email: string) => {
    const form = await fetch(`${url}/account/signin`, { headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of form.headers.getSetCookie()) jar.set(c.split('=')[0]!, c.split(';')[0]!.split('=').slice(1).join('='));
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const t = performance.now();
    const res = await fetch(`${url}/account/signin`, {
      method: 'POST',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email, password: 'not the password' }),
      redirect: 'manual',
    });
    await res.text();
    if (res.status !== 400) throw new Error(`sign-in answered ${res.status}`);
    return performance.now() - t;
  };
  const samples = Math.min(Number(opts.signins), 8 * runs.length, 24);
  for (let i = 0; i < samples; i++) {
    // Alternating which goes first, so neither kind always follows the other.
    const knownEmail = `customer-${(i % runs.length) + 1}-${process.pid}@example.com`;
    const unknownEmail = `nobody-${i}-${process.pid}@example.com`;
    if (i % 2 === 0) {
      known.push(await signIn(knownEmail));
      unknown.push(await signIn(unknownEmail));
    } else {
      unknown.push(await signIn(unknownEmail));
      known.push(await signIn(knownEmail));
    }
  }

  const result = {
    stack_start_ms: stackMs,
    runs,
    signin_wrong_password_known_address_median_ms: Math.round(median(known) * 10) / 10,
    signin_unknown_address_median_ms: Math.round(median(unknown) * 10) / 10,
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    process.stdout.write(`npm start (demo data loaded, banner printed): ${(stackMs / 1000).toFixed(1)} s\n`);
    for (const r of runs)
      process.stdout.write(
        `run ${r.run}: sign-up to a working key ${(r.total_ms! / 1000).toFixed(2)} s  (sign up ${r.sign_up_ms} ms, link on the terminal ${r.mail_ms} ms, confirm ${r.confirm_ms} ms, create key ${r.create_key_ms} ms, first 200 ${r.first_call_ms} ms)\n`,
      );
    process.stdout.write(
      `sign-in answers, median of ${known.length}: known address with a wrong password ${result.signin_wrong_password_known_address_median_ms} ms, unknown address ${result.signin_unknown_address_median_ms} ms\n`,
    );
  }
} finally {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  const runtime = await openRuntime(config);
  try {
    await dropScratch(runtime, config, prefix, dir);
    const keys = await runtime.redis.keys(`${prefix}-*`).catch(() => [] as string[]);
    if (keys.length > 0) await runtime.redis.del(...keys);
  } finally {
    await runtime.close();
  }
}
