// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { MAIL_LIMIT, THROTTLE_LIMITS } from '../../../../services/web/throttle.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';

/**
 * Targeted lockout, against the real server, Redis and SMTP: an attacker who knows an address
 * cannot lock its owner out of sign-in or resets by failing on purpose, from one IPv4 address
 * or from every address of an IPv6 /64; a mailbox cannot be flooded from many networks; and
 * behind a trusted proxy (TRUST_PROXY) each client is counted by its own address, while a
 * client anywhere else cannot pick its address with X-Forwarded-For.
 */
let site: AccountSite;
const PASSWORD = 'correct horse battery staple';
const PROXY = '10.9.0.5';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0, env: { TRUST_PROXY: '10.9.0.0/16, 2001:db8:9::/48' } });
});
afterAll(async () => site?.close());

async function owner(email: string): Promise<void> {
  const { sql } = site.t.runtime;
  const { user } = await createTrialAccount(sql, {
    organisation: 'Lockout Tests',
    email,
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, user.id, new Date());
}

async function signIn(options: Parameters<typeof formClient>[1], email: string, password: string) {
  const client = formClient(site.app, options);
  await client.get('/account/signin');
  return (await client.post('/account/signin', { email, password })).statusCode;
}

describe('an attacker who knows the address', () => {
  it('guessing from every address of one IPv6 /64 is one network: it is stopped, and the owner signs in', async () => {
    await owner('v6-target@example.com');
    for (let i = 0; i < THROTTLE_LIMITS.signin.perPair; i++)
      expect(await signIn({ remoteAddress: `2001:db8:66:1::${(i + 1).toString(16)}` }, 'v6-target@example.com', `guess ${i}`)).toBe(400);
    expect(await signIn({ remoteAddress: '2001:db8:66:1:ffff:ffff:ffff:ffff' }, 'v6-target@example.com', 'one more guess')).toBe(429);
    // The owner, on another /64 and on IPv4, is not held back.
    expect(await signIn({ remoteAddress: '2001:db8:66:2::1' }, 'v6-target@example.com', PASSWORD)).toBe(303);
    expect(await signIn({ remoteAddress: '198.51.100.66' }, 'v6-target@example.com', PASSWORD)).toBe(303);
  });

  it(`a mailbox gets at most ${MAIL_LIMIT.perEmail} mails an hour from the forms, from however many networks; every request reads the same`, async () => {
    await owner('mailbox@example.com');
    const before = site.smtp.messages.length;
    const texts = new Set<string>();
    for (let i = 0; i < MAIL_LIMIT.perEmail + 4; i++) {
      const client = formClient(site.app, { remoteAddress: `203.0.113.${i + 1}` });
      await client.get('/account/reset');
      const res = await client.post('/account/reset', { email: 'mailbox@example.com' });
      expect(res.statusCode).toBe(200);
      texts.add(mainText(res.body));
    }
    expect(texts.size).toBe(1);
    // Each reset mail is a link issued before the page answers: exactly the share was issued.
    const links = await site.t.runtime.sql.get(
      "SELECT count(*) AS n FROM email_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = 'mailbox@example.com'",
    );
    expect(links).toEqual({ n: MAIL_LIMIT.perEmail });
    await site.smtp.waitFor('mailbox@example.com', { after: before + MAIL_LIMIT.perEmail - 1 });
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  it("counts each client by the address the proxy forwards: one client's failures do not stop another behind the same proxy", async () => {
    await owner('behind-proxy@example.com');
    const attacker = { remoteAddress: PROXY, headers: { 'x-forwarded-for': '198.51.100.9' } };
    for (let i = 0; i < THROTTLE_LIMITS.signin.perPair; i++)
      expect(await signIn(attacker, 'behind-proxy@example.com', `guess ${i}`)).toBe(400);
    expect(await signIn(attacker, 'behind-proxy@example.com', 'one more')).toBe(429);
    // The owner reaches the same proxy from their own address.
    expect(await signIn({ remoteAddress: PROXY, headers: { 'x-forwarded-for': '192.0.2.44' } }, 'behind-proxy@example.com', PASSWORD)).toBe(
      303,
    );
    // The rightmost untrusted hop is the client: a client cannot prepend an address of its choosing.
    expect(
      await signIn(
        { remoteAddress: PROXY, headers: { 'x-forwarded-for': '192.0.2.44, 198.51.100.9' } },
        'behind-proxy@example.com',
        PASSWORD,
      ),
    ).toBe(429);
  });

  it('ignores X-Forwarded-For from anywhere else', async () => {
    await owner('forged@example.com');
    const from = '198.51.100.77';
    for (let i = 0; i < THROTTLE_LIMITS.signin.perPair; i++)
      expect(
        await signIn({ remoteAddress: from, headers: { 'x-forwarded-for': `192.0.2.${i + 1}` } }, 'forged@example.com', `guess ${i}`),
      ).toBe(400);
    expect(await signIn({ remoteAddress: from, headers: { 'x-forwarded-for': '192.0.2.200' } }, 'forged@example.com', 'one more')).toBe(
      429,
    );
    expect(await signIn({ remoteAddress: '198.51.100.78' }, 'forged@example.com', PASSWORD)).toBe(303);
  });
});
