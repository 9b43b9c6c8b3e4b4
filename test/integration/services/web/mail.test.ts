// @module-tag postgres
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../../services/control/accounts/sessions.ts';
import { findUserByEmail } from '../../../../services/control/accounts/users.ts';
import { createMailer, type Mail } from '../../../../services/web/mail/mailer.ts';
import { buildSite } from '../../../../services/web/site.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';
import { freePort } from '../../../helpers/ports.ts';
import { linkIn } from '../../../helpers/smtp.ts';

/**
 * The account page's mail through a real SMTP server (nodemailer to smtp-server), the outbox
 * used without SMTP settings, and an SMTP server that does not answer.
 */
let site: AccountSite;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0, env: { MAIL_FROM: 'Taxcert Accounts <accounts@taxcert.example>' } });
});
afterAll(async () => site?.close());

async function signUp(email: string, organisation = 'Mail Tests') {
  const client = formClient(site.app, { remoteAddress: '10.3.0.1' });
  await client.get('/account/signup');
  const res = await client.post('/account/signup', { email, organisation });
  expect(res.statusCode).toBe(200);
  return client;
}

describe('mail through SMTP_URL', () => {
  it('sign-up mails a confirmation link from MAIL_FROM that starts with PUBLIC_URL', async () => {
    const before = site.smtp.messages.length;
    await signUp('Fresh@Example.com');
    const mail = await site.smtp.waitFor('fresh@example.com', { after: before });
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.raw).toMatch(/^From: Taxcert Accounts <accounts@taxcert\.example>/m);
    expect(linkIn(mail)).toMatch(new RegExp(`^${site.url}/account/verify\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail.text).toContain('The link works once, for 24 hours.');
  });

  it('a second sign-up with a known address mails its owner instead, with no link that changes anything', async () => {
    const first = site.smtp.messages.length;
    const client = await signUp('twice@example.com', 'First');
    const link = linkIn(await site.smtp.waitFor('twice@example.com', { subject: /confirm/i, after: first }));
    await client.get(link.slice(site.url.length));
    expect((await client.post('/account/verify', { token: new URL(link).searchParams.get('token')!, password: PASSWORD })).statusCode).toBe(
      303,
    );
    const before = site.smtp.messages.length;
    await signUp('twice@example.com', 'Second');
    const mail = await site.smtp.waitFor('twice@example.com', { after: before });
    expect(mail.subject).toBe('You already have an account');
    expect(mail.text).toContain(`Sign in: ${site.url}/account/signin`);
    expect(mail.text).toContain(`Forgot your password? ${site.url}/account/reset`);
    expect(mail.text).not.toMatch(/token=/);
    expect(await site.t.runtime.sql.all("SELECT name FROM clients WHERE name IN ('First', 'Second')")).toEqual([{ name: 'First' }]);
  });

  it('a reset for an unknown address sends nothing; for a known one, a 30-minute link', async () => {
    const client = formClient(site.app, { remoteAddress: '10.3.0.2' });
    await client.get('/account/reset');
    const before = site.smtp.messages.length;
    await client.post('/account/reset', { email: 'stranger@example.com' });
    await signUp('forgetful@example.com');
    await client.post('/account/reset', { email: 'forgetful@example.com' });
    const mail = await site.smtp.waitFor('forgetful@example.com', { subject: /reset/i, after: before });
    expect(linkIn(mail)).toMatch(new RegExp(`^${site.url}/account/reset\\?token=`));
    expect(mail.text).toContain('The link works once, for 30 minutes.');
    expect(site.smtp.messages.slice(before).filter((m) => m.to.includes('stranger@example.com'))).toEqual([]);
  });

  it('signing up again before confirming mails a new link; the earlier link stops working', async () => {
    const before = site.smtp.messages.length;
    const client = await signUp('pending@example.com', 'Pending');
    const first = linkIn(await site.smtp.waitFor('pending@example.com', { after: before }));
    const count = site.smtp.messages.length;
    await signUp('pending@example.com', 'Pending Again');
    const second = await site.smtp.waitFor('pending@example.com', { after: count });
    expect(second.subject).toBe('Confirm your email address');
    expect(linkIn(second)).not.toBe(first);
    expect(mainText((await client.get(first.slice(site.url.length))).body)).toContain('This link no longer works');
    expect(mainText((await client.get(linkIn(second).slice(site.url.length))).body)).toContain('Confirm your email address');
    expect(await site.t.runtime.sql.all("SELECT name FROM clients WHERE name LIKE 'Pending%'")).toEqual([{ name: 'Pending' }]);
  });

  it('the overview of a session begun while unconfirmed sends the link again; the earlier link stops working', async () => {
    const before = site.smtp.messages.length;
    const client = await signUp('again@example.com');
    const first = linkIn(await site.smtp.waitFor('again@example.com', { after: before }));
    // An unconfirmed user cannot sign in; a session begun before that rule may still be presented.
    const user = (await findUserByEmail(site.t.runtime.sql, 'again@example.com'))!;
    client.cookies.set('__Host-taxcert-session', await createSession(site.t.runtime.sql, user.id, new Date()));
    expect(mainText((await client.get('/account')).body)).toContain('Confirm your email address');
    const count = site.smtp.messages.length;
    expect((await client.post('/account/verify/resend', {})).headers.location).toBe('/account?notice=verification-sent');
    const second = linkIn(await site.smtp.waitFor('again@example.com', { after: count }));
    expect(second).not.toBe(first);
    expect(mainText((await client.get(first.slice(site.url.length))).body)).toContain('This link no longer works');
    expect(mainText((await client.get(second.slice(site.url.length))).body)).toContain('Confirm your email address');
  });

  it('an SMTP server that does not answer: the sign-up page answers as always, the account is made, nothing hangs', async () => {
    const closed = await freePort();
    const app = await buildSite({ ...site.t.runtime, config: { ...site.t.config, SMTP_URL: `smtp://127.0.0.1:${closed}` } });
    try {
      const client = formClient(app, { remoteAddress: '10.3.0.3' });
      await client.get('/account/signup');
      const res = await client.post('/account/signup', {
        email: 'no-mail-server@example.com',
        password: PASSWORD,
        organisation: 'Offline',
      });
      expect(res.statusCode).toBe(200);
      expect(mainText(res.body)).toContain('Check your email');
      expect(await findUserByEmail(site.t.runtime.sql, 'no-mail-server@example.com')).not.toBeNull();
    } finally {
      // close() waits for the failed send to settle.
      await app.close();
    }
  });
});

describe('the outbox, without SMTP settings', () => {
  it('writes each mail whole into MAIL_OUTBOX_DIR, readable by its owner only, and hands over its link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    try {
      const told: [Mail, string][] = [];
      const mailer = createMailer(
        { SMTP_URL: undefined, MAIL_FROM: 'Taxcert <no-reply@taxcert.invalid>', MAIL_OUTBOX_DIR: join(dir, 'outbox') },
        { onOutbox: (mail, file) => told.push([mail, file]) },
      );
      expect(mailer.mode).toBe('outbox');
      const mail: Mail = {
        to: 'dev@example.com',
        subject: 'Confirm your email address',
        text: 'Open: http://127.0.0.1:3000/account/verify?token=abc',
        link: { label: 'Confirm your email', url: 'http://127.0.0.1:3000/account/verify?token=abc' },
      };
      await mailer.send(mail);
      mailer.close();
      const files = readdirSync(join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      const file = join(dir, 'outbox', files[0]!);
      expect(files[0]).toMatch(/\.eml$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const raw = readFileSync(file, 'utf8');
      expect(raw).toMatch(/^From: Taxcert <no-reply@taxcert\.invalid>$/m);
      expect(raw).toMatch(/^To: dev@example\.com$/m);
      expect(raw).toMatch(/^Subject: Confirm your email address$/m);
      expect(raw).toContain('http://127.0.0.1:3000/account/verify?token=abc');
      expect(told).toEqual([[mail, file]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
