// @module-tag postgres
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { BIN, childEnv, runCli } from '../../../helpers/cli.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';
import { freePort } from '../../../helpers/ports.ts';
import { decodeMail } from '../../../helpers/smtp.ts';

/**
 * The operator's commands for accounts (list accounts and users, suspend with a reason and
 * reactivate, resend a verification), and what `taxcert serve` writes to its log while the account
 * page is used: no password, token or key.
 */
let site: AccountSite;
let env: NodeJS.ProcessEnv;
let outbox: string;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0 });
  outbox = mkdtempSync(join(tmpdir(), 'operators-outbox-'));
  // No SMTP_URL: the CLI writes mail to the outbox; the secret is the server's.
  env = childEnv(site.t.config, { KEY_HASH_SECRET: site.t.config.KEY_HASH_SECRET, MAIL_OUTBOX_DIR: outbox, PUBLIC_URL: site.url });
});
afterAll(async () => {
  rmSync(outbox, { recursive: true, force: true });
  await site?.close();
});

const cli = async (args: string[]) => {
  const r = await runCli(args, env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};

describe('taxcert accounts and clients', () => {
  it('lists accounts with their users (never a password hash), and one client’s users', async () => {
    const { sql } = site.t.runtime;
    const a = await createTrialAccount(sql, {
      organisation: 'Listed LLC',
      email: 'listed@example.com',
      passwordHash: await hashPassword(PASSWORD),
      now: new Date(),
    });
    const list = await cli(['accounts', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const row = (list.json().accounts as { id: string }[]).find((x) => x.id === a.client.id);
    expect(row).toEqual({
      id: a.client.id,
      name: 'Listed LLC',
      plan: 'free_trial',
      status: 'active',
      status_reason: null,
      created_at: a.client.createdAt,
      users: [
        {
          id: a.user.id,
          client_id: a.client.id,
          email: 'listed@example.com',
          email_verified_at: null,
          created_at: a.user.createdAt,
          last_sign_in_at: null,
        },
      ],
    });
    expect(list.stdout).not.toContain('argon2');
    const text = await cli(['accounts', 'users', '--client', a.client.id]);
    expect(text.stdout).toMatch(
      new RegExp(`^${a.user.id}  listed@example.com  client ${a.client.id}  not verified  last sign-in never$`, 'm'),
    );
  });

  it('suspends with a reason the user reads on the overview, refuses the keys, and reactivates', async () => {
    const { sql, config } = site.t.runtime;
    const a = await createTrialAccount(sql, {
      organisation: 'Suspended Co',
      email: 'held@example.com',
      passwordHash: await hashPassword(PASSWORD),
      now: new Date(),
    });
    await markEmailVerified(sql, a.user.id, new Date());
    const key = (await createKey(sql, { clientId: a.client.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET }))
      .raw;
    const api = () => site.app.inject({ method: 'GET', url: '/api/v1/counties', headers: { authorization: `Bearer ${key}` } });
    expect((await api()).statusCode).toBe(200);

    expect((await cli(['clients', 'suspend', a.client.id])).code).toBe(2);
    const suspended = await cli(['clients', 'suspend', a.client.id, '--reason', 'Card declined on 3 May.', '--json']);
    expect(suspended.code, suspended.stderr).toBe(0);
    expect(suspended.json()).toMatchObject({ status: 'suspended', statusReason: 'Card declined on 3 May.' });
    expect((await api()).statusCode).toBe(401);
    const browser = formClient(site.app, { remoteAddress: '10.4.0.1' });
    await browser.get('/account/signin');
    expect((await browser.post('/account/signin', { email: 'held@example.com', password: PASSWORD })).statusCode).toBe(303);
    expect(mainText((await browser.get('/account')).body)).toContain('Your account is suspended Card declined on 3 May.');

    expect((await cli(['clients', 'reactivate', a.client.id])).stdout).toBe(`${a.client.id}: active\n`);
    expect((await api()).statusCode).toBe(200);
    expect(mainText((await browser.get('/account')).body)).not.toContain('suspended');
    expect((await cli(['clients', 'reactivate', 'cli_nobody'])).code).toBe(1);
  });

  it('resends a verification: a new link in the outbox, the old one spent; refuses unknown and verified users', async () => {
    const client = formClient(site.app, { remoteAddress: '10.4.0.2' });
    await client.get('/account/signup');
    const before = site.smtp.messages.length;
    await client.post('/account/signup', { email: 'late@example.com', organisation: 'Late' });
    const first = await site.smtp.waitFor('late@example.com', { after: before });
    const sent = await cli(['accounts', 'resend-verification', 'LATE@example.com', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.json()).toMatchObject({ email: 'late@example.com', sent_by: 'outbox', outbox });
    const [file] = readdirSync(outbox);
    const link = /http\S+\/account\/verify\?token=[A-Za-z0-9_-]+/.exec(decodeMail(readFileSync(join(outbox, file!), 'utf8')).text)![0];
    expect(sent.stdout + sent.stderr).not.toContain(new URL(link).searchParams.get('token')!);
    expect(mainText((await client.get(/http\S+/.exec(first.text)![0].slice(site.url.length))).body)).toContain('This link no longer works');
    expect(mainText((await client.get(link.slice(site.url.length))).body)).toContain('Confirm your email address');

    expect((await cli(['accounts', 'resend-verification', 'nobody@example.com'])).code).toBe(1);
    await client.post('/account/verify', { token: new URL(link).searchParams.get('token')!, password: PASSWORD });
    const verified = await cli(['accounts', 'resend-verification', 'late@example.com']);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain('is verified already');
  });
});

describe('the log of taxcert serve while the account page is used', () => {
  it('holds no password, mailed token or key: request lines mask ?token=, bodies are never logged', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // development: request lines on; no SMTP_URL, so mail goes to the outbox (the log names the file, not the link).
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...env, NODE_ENV: 'development', LOG_LEVEL: 'info', PORT: String(port), PUBLIC_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      for (
        let i = 0;
        i < 200 &&
        !(await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ));
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
      const jar: string[] = [];
      const get = async (path: string) => {
        const res = await fetch(`${url}${path}`, { headers: { cookie: jar.join('; ') }, redirect: 'manual' });
        for (const c of res.headers.getSetCookie()) jar.push(c.split(';')[0]!);
        return res.text();
      };
      const post = async (path: string, fields: Record<string, string>, page: string) => {
        const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
        const res = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { cookie: jar.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: csrf, ...fields }),
          redirect: 'manual',
        });
        for (const c of res.headers.getSetCookie()) jar.push(c.split(';')[0]!);
        return res.status;
      };
      const secretPassword = 'my very secret passphrase 42';
      expect(await post('/account/signup', { email: 'logged@example.com', organisation: 'Logs' }, await get('/account/signup'))).toBe(200);
      // Unconfirmed, so refused; the password went through the server all the same.
      expect(await post('/account/signin', { email: 'logged@example.com', password: secretPassword }, await get('/account/signin'))).toBe(
        400,
      );
      const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
      await get(`/account/verify?token=${token}`);
      await get(`/account/reset?token=${token}&x=1`);
      await get(`/account/verify?%74oken=${token}`);
      for (let i = 0; i < 50 && !stderr.includes('mail written to the outbox'); i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const lines = stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(7);
    expect(stderr).toContain('/account/verify?token=[redacted]');
    expect(stderr).toContain('/account/reset?token=[redacted]&x=1');
    expect(stderr).not.toContain('AbCdEfGhIjKlMnOpQrStUvWxYz');
    expect(stderr).not.toContain('my very secret passphrase');
    expect(stderr).toContain('mail written to the outbox');
    // The mailed link's token is in the outbox file only.
    const mailed = readdirSync(outbox)
      .map((f) => decodeMail(readFileSync(join(outbox, f), 'utf8')).text)
      .map((m) => /token=([A-Za-z0-9_-]{43})/.exec(m)?.[1])
      .filter((t): t is string => t !== undefined);
    expect(mailed.length).toBeGreaterThan(0);
    for (const t of mailed) expect(stderr).not.toContain(t);
  });
});
