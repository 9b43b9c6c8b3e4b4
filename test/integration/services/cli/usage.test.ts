// @module-tag postgres
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue, redisConnection } from '../../../../indexer/queue.ts';
import { BIN, childEnv, runCli } from '../../../helpers/cli.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

// The CLI's errors, as scripts and people rely on them: usage errors exit 2 everywhere, --json
// failures print one JSON document, a missing option is named, county names resolve to slugs,
// `taxcert counties` exists, a missing manifest says so in words, and Ctrl-C during ingest --wait
// says the jobs go on.

const fixture = (path: string) => fileURLToPath(new URL(`../../../../fixtures/files/${path}`, import.meta.url));
const good = fixture('lienport-csv/good.csv');

describe('taxcert usage and errors', () => {
  let t: TestRuntime;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    env = childEnv(t.config);
  });
  afterAll(async () => {
    await t.teardown();
  });

  it.concurrent.each([
    [['status', '--bogus'], /unknown option '--bogus'/],
    [['reindex'], /required option '--dataset <name>' not specified/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['quarantine', 'list', '--limit'], /option '--limit <n>' argument missing/],
  ])("commander's own usage error %j exits 2", async (args, message) => {
    const r = await runCli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it.concurrent.each([
    [['status', '--bogus'], 'usage_error', /unknown option '--bogus'/],
    [['ingest', good], 'usage_error', /^--vendor, --county and --tax-year are required with FILEs$/],
    [['ingest', '--manifest', '/no/such/dir/manifest.json'], 'usage_error', /^manifest \/no\/such\/dir\/manifest.json does not exist$/],
    [['status'], 'unavailable', /^Redis does not answer at redis:\/\/127\.0\.0\.1:1\./],
  ])('with --json, %j prints one error document on stdout', async (args, code, message) => {
    const r = await runCli(['--json', ...args], code === 'unavailable' ? { ...env, REDIS_URL: 'redis://127.0.0.1:1' } : env);
    expect(r.code).not.toBe(0);
    const doc = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(Object.keys(doc)).toEqual(['error']);
    expect(doc.error.code).toBe(code);
    expect(doc.error.message).toMatch(message);
  });

  it.concurrent.each([
    [['ingest', '--vendor', 'lienport', '--county', 'broward', good], /^taxcert: --tax-year is required with FILEs$/],
    [['ingest', '--vendor', 'lienport', '--tax-year', '2024', good], /^taxcert: --county is required with FILEs$/],
    [['ingest', '--county', 'broward', good], /^taxcert: --vendor and --tax-year are required with FILEs$/],
    [['ingest', '--manifest', '/no/such/dir/manifest.json'], /^taxcert: manifest \/no\/such\/dir\/manifest.json does not exist$/],
    // The county resolved: the next check (the file) is the one that fails.
    [
      ['ingest', '--vendor', 'lienport', '--county', 'Miami-Dade', '--tax-year', '2024', '/no/such.csv'],
      /^taxcert: \/no\/such.csv: no such file$/,
    ],
    [
      ['ingest', '--vendor', 'lienport', '--county', 'miami dade', '--tax-year', '2024', '/no/such.csv'],
      /^taxcert: \/no\/such.csv: no such file$/,
    ],
    [
      ['ingest', '--vendor', 'lienport', '--county', 'dade', '--tax-year', '2024', good],
      /^taxcert: --county: unknown county "dade"; did you mean miami-dade\? \(taxcert counties lists them\)$/,
    ],
  ])('%j names the problem in one line and exits 2', async (args, message) => {
    const r = await runCli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('taxcert counties lists every county with slug, FIPS, revenue number, vendor, coverage and count', async () => {
    const text = await runCli(['counties'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^slug\s+name\s+fips\s+rev\s+vendor\s+coverage\s+certificates$/m);
    expect(text.stdout).toMatch(/^broward\s+Broward\s+12011\s+16\s+\S+\s+directory_only\s+0$/m);
    expect(text.stdout).toMatch(/^67 counties, 0 certificates$/m);
    const json = await runCli(['counties', '--json'], env);
    const doc = JSON.parse(json.stdout) as { counties: Record<string, unknown>[] };
    expect(doc.counties).toHaveLength(67);
    expect(doc.counties.find((c) => c.slug === 'miami-dade')).toMatchObject({
      name: 'Miami-Dade',
      fips: '12086',
      revenueNumber: '23',
      coverage: 'directory_only',
      certificates: 0,
    });
  });

  it('Ctrl-C during ingest --wait says the queued jobs go on in the worker', async () => {
    // A paused queue holds the job, so the command is still waiting when the signal comes.
    const connection = redisConnection(t.config);
    const queue = createIngestQueue(t.config, connection);
    await queue.pause();
    try {
      const child = spawn(
        process.execPath,
        [BIN, 'ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', '2024', good, '--wait'],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      let signalled = false;
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (!signalled && stderr.includes('Ctrl-C stops waiting')) signalled = child.kill('SIGINT');
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(130);
      expect(stderr).toMatch(/stopped waiting; the 1 queued job\(s\) are not cancelled: they go on in the worker/);
      // The job is still there for a worker to run.
      expect(await queue.getWaitingCount()).toBe(1);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });
});
