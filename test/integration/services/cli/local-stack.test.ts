// @module-tag postgres
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StackRecord } from '../../../../services/process/stack-record.ts';
import { BIN, type CliSuite, openCliSuite, runCli } from '../../../helpers/cli.ts';
import { freePort } from '../../../helpers/ports.ts';

// Commands in another terminal must find the stack `npm start` runs: beside it,
// `npx taxcert status` once failed with `connect ECONNREFUSED 127.0.0.1:9200` and no hint, and
// created data/taxcert.db and key-hash-secret. And the terminal line of a request once printed a
// key sent in the URL, which the JSON log already redacted.
// Here a real `taxcert start` runs in a checkout folder of its own on a pseudo-terminal, and real
// `taxcert` children run beside it with no stack variables at all.

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

describe('commands in another terminal find the stack npm start recorded', () => {
  let suite: CliSuite;
  let checkout: string;
  let start: ChildProcess;
  let exited: Promise<void>;
  let out = '';
  let port: number;
  /** A second terminal: no OPENSEARCH_URL, DATABASE_PATH, INDEX_PREFIX or REDIS_URL. */
  let bare: NodeJS.ProcessEnv;

  beforeAll(async () => {
    suite = await openCliSuite(import.meta.url, 'taxcert-local-stack-');
    checkout = join(suite.dir, 'checkout');
    mkdirSync(checkout);
    port = await freePort();
    // No NODE_ENV either: unset is production, and the mode comes from the stack's record.
    bare = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' };
    // The engine is named (the shared test node, never started or stopped here); the database is
    // the default one, data/<prefix>.db of the checkout. No LOG_LEVEL: the quiet terminal console.
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TERM: 'xterm',
      NODE_ENV: 'development',
      OPENSEARCH_URL: suite.t.config.OPENSEARCH_URL,
      REDIS_URL: suite.t.config.REDIS_URL,
      INDEX_PREFIX: suite.t.config.INDEX_PREFIX,
      PORT: String(port),
    };
    const command = [process.execPath, BIN, 'start', '--no-demo'].map(quote).join(' ');
    start = spawn('script', ['-qfec', command, '/dev/null'], { env, cwd: checkout, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    start.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    exited = new Promise((resolve) => start.on('exit', () => resolve()));
    const deadline = Date.now() + 120_000;
    while (!out.includes('Ctrl-C stops everything') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(out).toContain('Ctrl-C stops everything');
  });
  afterAll(async () => {
    if (start.exitCode === null && start.pid) process.kill(-start.pid, 'SIGTERM');
    await exited;
    await suite.close();
  });

  it('start records its engine, database and prefix in the data folder, readable only by its user', () => {
    const file = join(checkout, 'data', 'stack.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(checkout, 'data')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('status, clients and keys reach that stack with no environment', async () => {
    const status = await runCli(['--json', 'status'], bare, 60_000, checkout);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ prefix: suite.t.config.INDEX_PREFIX, opensearch: suite.t.config.OPENSEARCH_URL });

    const created = await runCli(
      ['--json', 'clients', 'create', '--name', 'Second terminal', '--plan', 'developer'],
      bare,
      60_000,
      checkout,
    );
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const db = new Database(join(checkout, 'data', `${suite.t.config.INDEX_PREFIX}.db`), { readonly: true });
    try {
      expect(db.prepare('SELECT name FROM clients WHERE id = ?').get(id)).toEqual({ name: 'Second terminal' });
    } finally {
      db.close();
    }
  });

  it('an explicit variable wins: another INDEX_PREFIX is not this stack', async () => {
    const r = await runCli(['status'], { ...bare, INDEX_PREFIX: 'another' }, 60_000, checkout);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`records the stack with INDEX_PREFIX=${suite.t.config.INDEX_PREFIX}, not another`);
  });

  it('the terminal line of a request masks a key sent in the URL, percent-encoded or not', async () => {
    for (const path of ['/healthz?api%5Fkey=txc_live_leak1', '/api/v1/counties?limit=1&api_key=txc_live_leak2']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      await res.arrayBuffer();
    }
    const deadline = Date.now() + 10_000;
    while (!out.includes('/api/v1/counties?limit=1&api_key=[redacted]') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(out).toMatch(/\d\d:\d\d:\d\d GET \/healthz\?api%5Fkey=\[redacted\] \d{3} \d+ms/);
    expect(out).toContain('GET /api/v1/counties?limit=1&api_key=[redacted] 401');
    expect(out).not.toContain('txc_live_leak');
  });

  it('after a clean stop the record is gone and a command says what to start or set', async () => {
    // Ctrl-C on the terminal: SIGINT to the process the record names.
    const record = JSON.parse(readFileSync(join(checkout, 'data', 'stack.json'), 'utf8')) as StackRecord;
    process.kill(record.pid, 'SIGINT');
    await exited;
    expect(existsSync(join(checkout, 'data', 'stack.json'))).toBe(false);
    const r = await runCli(['status'], bare, 60_000, checkout);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'taxcert: no local stack found: nothing recorded in data/stack.json; start one with `npm start` in this checkout, or set OPENSEARCH_URL and DATABASE_PATH\n',
    );
  });
});

describe('with no stack, a command creates nothing', () => {
  let suite: CliSuite;
  let n = 0;
  const bare = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', LOG_LEVEL: 'warn' };

  beforeAll(async () => {
    suite = await openCliSuite(import.meta.url, 'taxcert-no-stack-');
  });
  afterAll(() => suite.close());

  /** A fresh checkout folder, with data/stack.json when a record is given. */
  function checkoutWith(record?: Partial<StackRecord>): string {
    const dir = join(suite.dir, `checkout-${n++}`);
    mkdirSync(join(dir, 'data'), { recursive: true });
    if (record) {
      const full: StackRecord = {
        pid: process.pid,
        startedAt: '2026-11-24T08:00:00.000Z',
        env: {
          OPENSEARCH_URL: suite.t.config.OPENSEARCH_URL,
          DATABASE_PATH: suite.t.config.DATABASE_PATH,
          ...(suite.t.config.DATABASE_URL ? { DATABASE_URL: suite.t.config.DATABASE_URL } : {}),
          INDEX_PREFIX: suite.t.config.INDEX_PREFIX,
          REDIS_URL: suite.t.config.REDIS_URL,
          KEY_PREFIX: 'txc',
        },
        keyHashSecretGiven: false,
        ...record,
      };
      writeFileSync(join(dir, 'data', 'stack.json'), JSON.stringify(full));
    }
    return dir;
  }

  it.each([
    ['nothing recorded', undefined, /nothing recorded in data\/stack\.json; start one with `npm start`/],
    [
      'a stopped npm start',
      { pid: 999_999_999 },
      /npm start \(pid 999999999, started 2026-11-24T08:00:00\.000Z\) recorded in data\/stack\.json is no longer running/,
    ],
    [
      'an engine that does not answer',
      'dead-engine',
      /the OpenSearch of npm start \(pid \d+, .*\) does not answer at http:\/\/127\.0\.0\.1:\d+; start one/,
    ],
  ] as const)('%s', async (_name, recordOf, message) => {
    const record = recordOf === 'dead-engine' ? { env: { ...(await engineless()), INDEX_PREFIX: suite.t.config.INDEX_PREFIX } } : recordOf;
    const dir = checkoutWith(record);
    const before = readdirSync(join(dir, 'data'));
    for (const args of [
      ['status'],
      ['clients', 'set', 'cli_x', '--plan', 'pro'],
      ['quarantine', 'list'],
      ['keys', 'list', '--client', 'cli_x'],
      ['usage', 'show', '--client', 'cli_x'],
      ['counties'],
    ]) {
      const r = await runCli(args, bare, 60_000, dir);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^taxcert: no local stack found: ${message.source}`));
      expect(r.stderr).toMatch(/or set OPENSEARCH_URL and DATABASE_PATH\n$/);
    }
    expect(readdirSync(join(dir, 'data'))).toEqual(before);
    expect(readdirSync(dir)).toEqual(['data']);
  });

  it('a stack started with KEY_HASH_SECRET in its environment needs the same one here', async () => {
    const dir = checkoutWith({ keyHashSecretGiven: true });
    const r = await runCli(['--json', 'status'], bare, 60_000, dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { code: 'no_stack', message: expect.stringContaining('set the same KEY_HASH_SECRET here') },
    });
    expect(readdirSync(join(dir, 'data'))).toEqual(['stack.json']);
  });

  it('a stack started with WEBHOOK_SECRET_KEY in its environment needs the same one here', async () => {
    const dir = checkoutWith({ webhookSecretKeyGiven: true });
    const r = await runCli(['--json', 'webhooks', 'list', '--client', 'cli_x'], bare, 60_000, dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { code: 'no_stack', message: expect.stringContaining('set the same WEBHOOK_SECRET_KEY here') },
    });
    expect(readdirSync(join(dir, 'data'))).toEqual(['stack.json']);
  });

  async function engineless(): Promise<StackRecord['env']> {
    return {
      OPENSEARCH_URL: `http://127.0.0.1:${await freePort()}`,
      DATABASE_PATH: suite.t.config.DATABASE_PATH,
      ...(suite.t.config.DATABASE_URL ? { DATABASE_URL: suite.t.config.DATABASE_URL } : {}),
      INDEX_PREFIX: suite.t.config.INDEX_PREFIX,
      REDIS_URL: suite.t.config.REDIS_URL,
      KEY_PREFIX: 'txc',
    };
  }
});
