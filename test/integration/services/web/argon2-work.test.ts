// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { issueToken } from '../../../../services/control/accounts/email-tokens.ts';
import { argon2Hasher, hashPassword, type PasswordHasher } from '../../../../services/control/accounts/passwords.ts';
import { findUserByEmail, markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { LINK_LIMIT } from '../../../../services/web/throttle.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';

/**
 * Which anonymous requests cost argon2 work, counted at the hasher the site is handed (the real
 * argon2id, wrapped): a password-reset or confirmation post with a made-up token costs none (the
 * link is looked up first) and its path is throttled per client network; every refused sign-in
 * (wrong password, unknown address, unconfirmed account) costs exactly one check and reads the same.
 */
let site: AccountSite;
const counted = { hash: 0, verify: 0 };
const counting: PasswordHasher = {
  hash: (password) => {
    counted.hash++;
    return argon2Hasher.hash(password);
  },
  verify: (stored, password) => {
    counted.verify++;
    return argon2Hasher.verify(stored, password);
  },
};
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0, passwords: counting });
  // The site's dummy hash is made at start-up; it is not a request's work.
  await site.app.inject({ method: 'GET', url: '/account/signin' });
});
afterAll(async () => site?.close());

const work = async (fn: () => Promise<unknown>) => {
  const before = { ...counted };
  await fn();
  return { hash: counted.hash - before.hash, verify: counted.verify - before.verify };
};

let n = 0;
const madeUpToken = () => Buffer.alloc(32, ++n).toString('base64url');

describe('a mailed-link post with a token nobody was sent', () => {
  it('costs no argon2 hashing, however many come from however many addresses', async () => {
    const posts = async (path: string, page: string) => {
      for (let i = 0; i < 30; i++) {
        const client = formClient(site.app, { remoteAddress: `10.20.${i}.1` });
        await client.get(page);
        const res = await client.post(path, { token: madeUpToken(), password: 'a long enough new passphrase' });
        expect(res.statusCode).toBe(400);
        expect(mainText(res.body)).toContain('This link no longer works');
      }
    };
    expect(await work(() => posts('/account/reset', '/account/reset'))).toEqual({ hash: 0, verify: 0 });
    expect(await work(() => posts('/account/verify', '/account/signup'))).toEqual({ hash: 0, verify: 0 });
  });

  it(`is answered 429 after ${LINK_LIMIT.perNetwork} posts from one network in 15 minutes, IPv6 counted by its /64`, async () => {
    for (const [first, rest] of [
      ['10.21.0.1', () => '10.21.0.1'],
      ['2001:db8:21:1::1', (i: number) => `2001:db8:21:1::${(i + 2).toString(16)}`],
    ] as const) {
      const client = formClient(site.app, { remoteAddress: first });
      await client.get('/account/reset');
      for (let i = 0; i < LINK_LIMIT.perNetwork; i++) {
        const from = formClient(site.app, { remoteAddress: rest(i) });
        for (const [k, v] of client.cookies) from.cookies.set(k, v);
        from.body = client.body;
        await from.get('/account/reset');
        expect((await from.post('/account/reset', { token: madeUpToken(), password: 'a long enough new passphrase' })).statusCode).toBe(
          400,
        );
      }
      const refused = await client.post('/account/reset', { token: madeUpToken(), password: 'a long enough new passphrase' });
      expect(refused.statusCode, first).toBe(429);
      expect(mainText(refused.body)).toContain('Too many attempts. Try again in 15 minutes.');
    }
    // Another network is not held back by them.
    const other = formClient(site.app, { remoteAddress: '2001:db8:21:2::1' });
    await other.get('/account/reset');
    expect((await other.post('/account/reset', { token: madeUpToken(), password: 'a long enough new passphrase' })).statusCode).toBe(400);
  });

  it('a live link still sets the password, with one hash', async () => {
    const { sql } = site.t.runtime;
    const { user } = await createTrialAccount(sql, {
      organisation: 'Reset Co',
      email: 'live-link@example.com',
      passwordHash: await hashPassword(PASSWORD),
      now: new Date(),
    });
    await markEmailVerified(sql, user.id, new Date());
    const token = await issueToken(sql, user.id, 'reset', new Date());
    const client = formClient(site.app, { remoteAddress: '10.22.0.1' });
    await client.get(`/account/reset?token=${token}`);
    const spent = await work(async () => {
      const res = await client.post('/account/reset', { token, password: 'the new long passphrase' });
      expect(res.headers.location).toBe('/account/signin?notice=password-changed');
    });
    expect(spent).toEqual({ hash: 1, verify: 0 });
    // Spent now: a second post is refused without hashing.
    expect(await work(() => client.post('/account/reset', { token, password: 'a third long passphrase' }))).toEqual({ hash: 0, verify: 0 });
  });
});

describe('a refused sign-in', () => {
  it('reads the same for a wrong password, an unknown address and an unconfirmed account, after one argon2 check each', async () => {
    const { sql } = site.t.runtime;
    const confirmed = await createTrialAccount(sql, {
      organisation: 'Known',
      email: 'known@example.com',
      passwordHash: await hashPassword(PASSWORD),
      now: new Date(),
    });
    await markEmailVerified(sql, confirmed.user.id, new Date());
    // Signed up (before sign-up stopped taking a password) with a password, never confirmed.
    await createTrialAccount(sql, {
      organisation: 'Pending',
      email: 'pending@example.com',
      passwordHash: await hashPassword(PASSWORD),
      now: new Date(),
    });
    // Signed up without a password, never confirmed.
    const client = formClient(site.app, { remoteAddress: '10.23.0.1' });
    await client.get('/account/signup');
    await client.post('/account/signup', { email: 'new@example.com', organisation: 'New' });
    expect((await findUserByEmail(sql, 'new@example.com'))!.emailVerifiedAt).toBeNull();

    await client.get('/account/signin');
    const answers: { status: number; text: string; work: { hash: number; verify: number } }[] = [];
    for (const [email, password] of [
      ['known@example.com', 'not the password'],
      ['nobody@example.com', PASSWORD],
      ['pending@example.com', PASSWORD],
      ['new@example.com', PASSWORD],
      ['new@example.com', ''.padEnd(20, 'x')],
    ] as const) {
      let res!: Awaited<ReturnType<typeof client.post>>;
      const spent = await work(async () => {
        res = await client.post('/account/signin', { email, password });
      });
      answers.push({ status: res.statusCode, text: mainText(res.body).replace(email, 'ADDRESS'), work: spent });
    }
    expect(answers[0]).toEqual({
      status: 400,
      text: expect.stringContaining('The email address or the password is wrong.'),
      work: { hash: 0, verify: 1 },
    });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // The right password of the confirmed account signs in.
    expect((await client.post('/account/signin', { email: 'known@example.com', password: PASSWORD })).statusCode).toBe(303);
  });
});
