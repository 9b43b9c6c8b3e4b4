// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { pruneTokens } from '../../../../services/control/accounts/email-tokens.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { createSession, pruneSessions } from '../../../../services/control/accounts/sessions.ts';
import { findUserByEmail, markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { THROTTLE_LIMITS } from '../../../../services/web/throttle.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';
import { linkIn } from '../../../helpers/smtp.ts';

/**
 * The account page's sign-in security, against the real server, Redis and SMTP: the same answer
 * whether an address exists or not, the throttles per (email, network) pair and per network,
 * sessions (rotated at sign-in, idle 30 minutes, 12 hours at most, ended by sign-out and by a new
 * password) and single-use links (spent once, superseded by a newer one, expired). The site's clock
 * is moved, not waited for.
 */
let site: AccountSite;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0 });
});
afterAll(async () => site?.close());

let addresses = 0;
/** A fresh client address per test, so the per-address throttles of one test do not reach another. */
const address = () => `10.0.${Math.floor(++addresses / 250)}.${addresses % 250}`;

async function user(email: string): Promise<void> {
  const { sql } = site.t.runtime;
  const { user } = await createTrialAccount(sql, {
    organisation: 'Sign-in Tests',
    email,
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, user.id, new Date());
}

async function signedIn(email: string, from = address()) {
  const client = formClient(site.app, { remoteAddress: from });
  await client.get('/account/signin');
  const res = await client.post('/account/signin', { email, password: PASSWORD });
  expect(res.statusCode, mainText(res.body)).toBe(303);
  return client;
}

const sessionCookie = '__Host-taxcert-session';

describe('the same answer whether or not an address has an account', () => {
  it('sign-in: a wrong password and an unknown address read the same', async () => {
    await user('known@example.com');
    const client = formClient(site.app, { remoteAddress: address() });
    await client.get('/account/signin');
    const wrong = await client.post('/account/signin', { email: 'known@example.com', password: 'wrong password' });
    const unknown = await client.post('/account/signin', { email: 'unknown@example.com', password: 'wrong password' });
    expect(wrong.statusCode).toBe(unknown.statusCode);
    expect(mainText(unknown.body).replace('unknown@', 'known@')).toBe(mainText(wrong.body));
    expect(mainText(wrong.body)).toContain('The email address or the password is wrong.');
  });

  it('sign-up and reset: a known address and a new one get the same page', async () => {
    await user('taken@example.com');
    const client = formClient(site.app, { remoteAddress: address() });
    const text = async (url: string, fields: Record<string, string>) => {
      await client.get(url);
      const res = await client.post(url, fields);
      return { status: res.statusCode, text: mainText(res.body).replace(/\S+@example\.com/g, 'ADDRESS') };
    };
    const fields = { organisation: 'Someone' };
    expect(await text('/account/signup', { email: 'taken@example.com', ...fields })).toEqual(
      await text('/account/signup', { email: 'brand-new@example.com', ...fields }),
    );
    expect(await text('/account/reset', { email: 'taken@example.com' })).toEqual(
      await text('/account/reset', { email: 'nobody@example.com' }),
    );
    // The known address got no second account.
    expect(await site.t.runtime.sql.get("SELECT count(*) AS n FROM users WHERE email = 'taken@example.com'")).toEqual({ n: 1 });
  });
});

describe('throttles on Redis', () => {
  it(`sign-in: ${THROTTLE_LIMITS.signin.perPair} attempts per email from one network in 15 minutes, then "try again"; the owner elsewhere signs in`, async () => {
    await user('guessed@example.com');
    const client = formClient(site.app, { remoteAddress: address() });
    await client.get('/account/signin');
    for (let i = 0; i < THROTTLE_LIMITS.signin.perPair; i++)
      expect((await client.post('/account/signin', { email: 'guessed@example.com', password: `guess ${i}` })).statusCode).toBe(400);
    const refused = await client.post('/account/signin', { email: 'guessed@example.com', password: PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(mainText(refused.body)).toContain('Too many attempts. Try again in 15 minutes.');
    // The guesser's window is the guesser's: the owner, on another network, signs in.
    await signedIn('guessed@example.com');
    // An unknown address is throttled alike (nothing tells the two apart).
    const elsewhere = formClient(site.app, { remoteAddress: address() });
    await elsewhere.get('/account/signin');
    for (let i = 0; i < THROTTLE_LIMITS.signin.perPair; i++)
      await elsewhere.post('/account/signin', { email: 'ghost@example.com', password: 'x' });
    expect((await elsewhere.post('/account/signin', { email: 'ghost@example.com', password: 'x' })).statusCode).toBe(429);
  });

  it(`sign-in: ${THROTTLE_LIMITS.signin.perNetwork} attempts per client network in 15 minutes, across emails`, async () => {
    const from = address();
    const client = formClient(site.app, { remoteAddress: from });
    await client.get('/account/signin');
    for (let i = 0; i < THROTTLE_LIMITS.signin.perNetwork; i++)
      expect((await client.post('/account/signin', { email: `spray-${i}@example.com`, password: 'x' })).statusCode).toBe(400);
    expect((await client.post('/account/signin', { email: 'spray-last@example.com', password: 'x' })).statusCode).toBe(429);
    await user('innocent@example.com');
    await signedIn('innocent@example.com');
  });

  it(`reset: ${THROTTLE_LIMITS.reset.perPair} mails per email from one network an hour; the owner elsewhere still gets a link`, async () => {
    await user('reset-flood@example.com');
    const client = formClient(site.app, { remoteAddress: address() });
    await client.get('/account/reset');
    const before = site.smtp.messages.length;
    for (let i = 0; i < THROTTLE_LIMITS.reset.perPair; i++)
      expect((await client.post('/account/reset', { email: 'reset-flood@example.com' })).statusCode).toBe(200);
    const refused = await client.post('/account/reset', { email: 'reset-flood@example.com' });
    expect(refused.statusCode).toBe(429);
    expect(mainText(refused.body)).toContain('Too many attempts. Try again in 60 minutes.');
    await site.smtp.waitFor('reset-flood@example.com', { after: before + THROTTLE_LIMITS.reset.perPair - 1 });
    const owner = formClient(site.app, { remoteAddress: address() });
    await owner.get('/account/reset');
    expect((await owner.post('/account/reset', { email: 'reset-flood@example.com' })).statusCode).toBe(200);
    await site.smtp.waitFor('reset-flood@example.com', { after: before + THROTTLE_LIMITS.reset.perPair });
    expect(site.smtp.messages.slice(before).filter((m) => m.to.includes('reset-flood@example.com'))).toHaveLength(
      THROTTLE_LIMITS.reset.perPair + 1,
    );
  });
});

describe('sessions', () => {
  it('are rotated at sign-in: the id a browser came with is worth nothing after', async () => {
    await user('rotate@example.com');
    const client = await signedIn('rotate@example.com');
    const first = client.cookies.get(sessionCookie)!;
    // Signing in again from a signed-in page (its form's token), carrying the first session's cookie.
    await client.get('/account');
    await client.post('/account/signin', { email: 'rotate@example.com', password: PASSWORD });
    const second = client.cookies.get(sessionCookie)!;
    expect(second).not.toBe(first);
    const replay = await site.app.inject({ method: 'GET', url: '/account', headers: { cookie: `${sessionCookie}=${first}` } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/account/signin?next=%2Faccount');
    // Only digests are stored.
    expect(await site.t.runtime.sql.get('SELECT count(*) AS n FROM sessions WHERE id_hash = ?', [second])).toEqual({ n: 0 });
  });

  it('end after 30 minutes without a request', async () => {
    await user('idle2@example.com');
    const client = await signedIn('idle2@example.com');
    site.clock.offsetMs = 29 * 60_000;
    expect((await client.get('/account')).statusCode).toBe(200);
    site.clock.offsetMs += 30 * 60_000;
    const ended = await client.get('/account/keys');
    site.clock.offsetMs = 0;
    expect(ended.statusCode).toBe(303);
    expect(ended.headers.location).toBe('/account/signin?next=%2Faccount%2Fkeys&ended=1');
    expect(client.cookies.has(sessionCookie)).toBe(false);
  });

  it('end 12 hours after sign-in however busy', async () => {
    await user('busy@example.com');
    const client = await signedIn('busy@example.com');
    try {
      // A request every 25 minutes for 11 h 40 min keeps it alive...
      for (let step = 1; step <= 28; step++) {
        site.clock.offsetMs = step * 25 * 60_000;
        expect((await client.get('/account/billing')).statusCode, `step ${step}`).toBe(200);
      }
      // ...and the next one, 12 h 5 min after sign-in, is asked to sign in again.
      site.clock.offsetMs = 29 * 25 * 60_000;
      expect((await client.get('/account/billing')).headers.location).toBe('/account/signin?next=%2Faccount%2Fbilling&ended=1');
    } finally {
      site.clock.offsetMs = 0;
    }
  });

  it('end at sign-out; a copy of the cookie does not come back', async () => {
    await user('signout@example.com');
    const client = await signedIn('signout@example.com');
    const cookie = client.cookies.get(sessionCookie)!;
    await client.get('/account/signout');
    const out = await client.post('/account/signout', {});
    expect(out.headers.location).toBe('/account/signin?notice=signed-out');
    const replay = await site.app.inject({ method: 'GET', url: '/account', headers: { cookie: `${sessionCookie}=${cookie}` } });
    expect(replay.statusCode).toBe(303);
  });
});

describe('housekeeping', () => {
  it('ended sessions and old links are pruned; live ones stay', async () => {
    const { sql } = site.t.runtime;
    await user('prune@example.com');
    const live = await signedIn('prune@example.com');
    const userId = (await findUserByEmail(site.t.runtime.sql, 'prune@example.com'))!.id;
    const old = new Date(Date.now() - 13 * 60 * 60 * 1000).toISOString();
    await sql.run('INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)', [
      'old-session',
      userId,
      old,
      old,
    ]);
    // A link that expired more than a day ago goes; one that expired an hour ago stays a while.
    const dayOld = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    const hourOld = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await sql.run("INSERT INTO email_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES ('old-link', ?, 'reset', ?, ?)", [
      userId,
      dayOld,
      dayOld,
    ]);
    await sql.run(
      "INSERT INTO email_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES ('recent-link', ?, 'reset', ?, ?)",
      [userId, hourOld, hourOld],
    );
    expect(await pruneSessions(site.t.runtime.sql, new Date())).toBeGreaterThanOrEqual(1);
    expect(await pruneTokens(site.t.runtime.sql, new Date())).toBeGreaterThanOrEqual(1);
    expect(await sql.get("SELECT count(*) AS n FROM sessions WHERE id_hash = 'old-session'")).toEqual({ n: 0 });
    expect(await sql.all("SELECT token_hash FROM email_tokens WHERE token_hash IN ('old-link', 'recent-link')")).toEqual([
      { token_hash: 'recent-link' },
    ]);
    expect((await live.get('/account')).statusCode).toBe(200);
  });
});

describe('a sign-up someone else made with your address', () => {
  const path = (link: string) => link.slice(site.url.length);
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  it("an unconfirmed account cannot sign in, so sign-up and sign-in cannot tell a new address from a customer's", async () => {
    await user('customer@example.com');
    const probe = formClient(site.app, { remoteAddress: address() });
    const answers: { status: number; text: string }[] = [];
    for (const email of ['customer@example.com', 'not-yet@example.com']) {
      await probe.get('/account/signup');
      // A password posted with the sign-up form (as the form once took one) is not kept.
      await probe.post('/account/signup', { email, password: 'the prober chose this', organisation: 'Probe' });
      await probe.get('/account/signin');
      const res = await probe.post('/account/signin', { email, password: 'the prober chose this' });
      answers.push({ status: res.statusCode, text: mainText(res.body).replace(email, 'ADDRESS') });
    }
    expect(answers[0]!.status).toBe(400);
    expect(answers[1]).toEqual(answers[0]);
  });

  it('the owner confirming it chooses the password: nothing the sign-up set works, and its sessions end', async () => {
    const { sql } = site.t.runtime;
    // Made as sign-up made accounts before: with the attacker's password, and a session of theirs.
    const { user: made } = await createTrialAccount(sql, {
      organisation: 'Attacker Ltd',
      email: 'victim@example.com',
      passwordHash: await hashPassword('the attacker chose this one'),
      now: new Date(),
    });
    const attacker = formClient(site.app, { remoteAddress: address() });
    attacker.cookies.set(sessionCookie, await createSession(sql, made.id, new Date()));
    expect((await attacker.get('/account')).statusCode).toBe(200);
    // The victim asks for a link (sign-up again with their address) and confirms it.
    const victim = formClient(site.app, { remoteAddress: address() });
    await victim.get('/account/signup');
    const before = site.smtp.messages.length;
    await victim.post('/account/signup', { email: 'victim@example.com', organisation: 'Victim' });
    const link = linkIn(await site.smtp.waitFor('victim@example.com', { subject: /confirm/i, after: before }));
    await victim.get(path(link));
    expect(victim.body).toContain('autocomplete="new-password"');
    // The confirmation takes a password of the confirmer's own.
    expect((await victim.post('/account/verify', { token: tokenOf(link) })).statusCode).toBe(400);
    const confirmed = await victim.post('/account/verify', { token: tokenOf(link), password: 'the owner chose this one' });
    expect(confirmed.headers.location).toBe('/account/keys?notice=verified');
    expect((await victim.get('/account/keys')).statusCode).toBe(200);
    // The attacker's session is over and their password no longer works; the owner's does.
    expect((await attacker.get('/account')).statusCode).toBe(303);
    await attacker.get('/account/signin');
    expect(
      (await attacker.post('/account/signin', { email: 'victim@example.com', password: 'the attacker chose this one' })).statusCode,
    ).toBe(400);
    const owner = formClient(site.app, { remoteAddress: address() });
    await owner.get('/account/signin');
    expect((await owner.post('/account/signin', { email: 'victim@example.com', password: 'the owner chose this one' })).statusCode).toBe(
      303,
    );
  });
});

describe('single-use links', () => {
  async function resetLink(email: string, client = formClient(site.app, { remoteAddress: address() })): Promise<string> {
    const before = site.smtp.messages.length;
    await client.get('/account/reset');
    await client.post('/account/reset', { email });
    return linkIn(await site.smtp.waitFor(email, { subject: /reset/i, after: before }));
  }
  const path = (link: string) => link.slice(site.url.length);

  it('a new password spends the link, ends every session of the user, and the old password stops working', async () => {
    await user('everywhere@example.com');
    const laptop = await signedIn('everywhere@example.com');
    const phone = await signedIn('everywhere@example.com');
    const link = await resetLink('everywhere@example.com');
    const browser = formClient(site.app, { remoteAddress: address() });
    expect((await browser.get(path(link))).statusCode).toBe(200);
    const set = await browser.post('/account/reset', {
      token: new URL(link).searchParams.get('token')!,
      password: 'the new long passphrase',
    });
    expect(set.headers.location).toBe('/account/signin?notice=password-changed');
    expect((await laptop.get('/account')).statusCode).toBe(303);
    expect((await phone.get('/account')).statusCode).toBe(303);
    expect(mainText((await browser.get(path(link))).body)).toContain('This link no longer works');
    const again = await browser.post('/account/reset', {
      token: new URL(link).searchParams.get('token')!,
      password: 'a third long passphrase',
    });
    expect(mainText(again.body)).toContain('This link no longer works');
  });

  it('only the newest reset link works, and only for 30 minutes', async () => {
    await user('newest@example.com');
    const older = await resetLink('newest@example.com');
    const newer = await resetLink('newest@example.com');
    const client = formClient(site.app, { remoteAddress: address() });
    expect(mainText((await client.get(path(older))).body)).toContain('This link no longer works');
    expect(mainText((await client.get(path(newer))).body)).toContain('Choose a new password');
    site.clock.offsetMs = 30 * 60_000 + 1000;
    try {
      expect(mainText((await client.get(path(newer))).body)).toContain('This link no longer works');
    } finally {
      site.clock.offsetMs = 0;
    }
  });

  it('opening a confirmation link changes nothing (a mail scanner cannot spend it); its button confirms once', async () => {
    const client = formClient(site.app, { remoteAddress: address() });
    await client.get('/account/signup');
    const before = site.smtp.messages.length;
    await client.post('/account/signup', { email: 'scanned@example.com', organisation: 'Scanned' });
    const link = linkIn(await site.smtp.waitFor('scanned@example.com', { after: before }));
    const scanner = formClient(site.app, { remoteAddress: address() });
    expect((await scanner.get(path(link))).statusCode).toBe(200);
    expect((await findUserByEmail(site.t.runtime.sql, 'scanned@example.com'))!.emailVerifiedAt).toBeNull();
    await client.get(path(link));
    const confirmed = await client.post('/account/verify', { token: new URL(link).searchParams.get('token')!, password: PASSWORD });
    expect(confirmed.headers.location).toBe('/account/keys?notice=verified');
    expect((await findUserByEmail(site.t.runtime.sql, 'scanned@example.com'))!.emailVerifiedAt).not.toBeNull();
    expect(client.cookies.has(sessionCookie)).toBe(true);
    expect((await client.get('/account/keys')).statusCode).toBe(200);
    expect(mainText((await scanner.get(path(link))).body)).toContain('This link no longer works');
  });
});
