// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { CONTENT_SECURITY_POLICY } from '../../../../services/web/headers.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { formClient, mainText } from '../../../helpers/form-client.ts';

/**
 * The account page as a server: its headers on every answer, its place beside the API (no
 * change to /api/v1 or the OpenAPI document), CSRF on form posts, and bad input of every kind
 * answered with the form again or a page that says so, never a 500.
 */
let site: AccountSite;
const PASSWORD = 'correct horse battery staple';
let signedIn: ReturnType<typeof formClient>;
let apiKey: string;

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 3 });
  const { sql, config } = site.t.runtime;
  const { client, user } = await createTrialAccount(sql, {
    organisation: 'Pages Co',
    email: 'pages@example.com',
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, user.id, new Date());
  apiKey = (await createKey(sql, { clientId: client.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET })).raw;
  signedIn = formClient(site.app);
  await signedIn.get('/account/signin');
  expect((await signedIn.post('/account/signin', { email: 'pages@example.com', password: PASSWORD })).statusCode).toBe(303);
});
afterAll(async () => site?.close());

/** A confirmed account of its own, signed in. */
async function accountWith(email: string) {
  const { sql } = site.t.runtime;
  const { user } = await createTrialAccount(sql, {
    organisation: 'Pages Co',
    email,
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, user.id, new Date());
  const client = formClient(site.app);
  await client.get('/account/signin');
  expect((await client.post('/account/signin', { email, password: PASSWORD })).statusCode).toBe(303);
  return client;
}

const PAGES = [
  '/account',
  '/account/keys',
  '/account/saved-searches',
  '/account/portfolios',
  '/account/billing',
  '/account/billing/checkout?item=pack:starter',
  '/account/signout',
];
const PUBLIC_PAGES = [
  '/account/signup',
  '/account/signin',
  '/account/reset',
  '/account/verify?token=x',
  '/account/reset?token=x',
  '/account/nowhere',
];

describe('headers of every answer under /account', () => {
  it('pages: CSP without inline script, no framing, no referrer, no caching, no sniffing', async () => {
    const anonymous = formClient(site.app);
    for (const [client, urls] of [
      [signedIn, PAGES],
      [anonymous, PUBLIC_PAGES],
    ] as const) {
      for (const url of urls) {
        const res = await client.get(url);
        expect(res.statusCode, url).toBeLessThan(500);
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(res.headers).toMatchObject({
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-store',
        });
        // Nothing inline to allow: no <script> without src, no style attribute, no inline handlers.
        expect(res.body, url).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=/i);
      }
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });

  it('the session and CSRF cookies: HttpOnly, Secure (outside development), SameSite=Lax, __Host-', async () => {
    const client = formClient(site.app);
    const page = await client.get('/account/signin');
    const csrf = (page.cookies as { name: string }[]).find((c) => c.name === '__Host-taxcert-csrf');
    expect(csrf).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    const signIn = await client.post('/account/signin', { email: 'pages@example.com', password: PASSWORD });
    const session = (signIn.cookies as { name: string }[]).find((c) => c.name === '__Host-taxcert-session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect((session as { maxAge?: number }).maxAge).toBeUndefined();
  });

  it('our own CSS and script, served from the site (no CDN)', async () => {
    const css = await site.app.inject({ method: 'GET', url: '/account/assets/site.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const js = await site.app.inject({ method: 'GET', url: '/account/assets/copy.js' });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    const page = await signedIn.get('/account');
    expect([...page.body.matchAll(/(?:href|src)="(https?:)?\/\/[^"]*"/g)]).toEqual([]);
  });
});

describe('beside the API, not in it', () => {
  it('publishes no /account route in the OpenAPI document', async () => {
    const doc = (await site.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/account'))).toEqual([]);
    expect(Object.keys(doc.paths)).toContain('/api/v1/account/usage');
  });

  it('leaves /api/v1 answers as they were: JSON, the keyed headers, no cookie, no page headers', async () => {
    const res = await site.app.inject({ method: 'GET', url: '/api/v1/counties', headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeUndefined();
    // A form post to the API is still the API's refusal, in its envelope.
    const post = await site.app.inject({
      method: 'POST',
      url: '/api/v1/counties',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    expect(post.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    const missing = await site.app.inject({ method: 'GET', url: '/nowhere' });
    expect(missing.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('CSRF', () => {
  it('a post without the token, or with one from another cookie, is a 403 page and changes nothing', async () => {
    const client = formClient(site.app);
    await client.get('/account/signup');
    const without = await client.post(
      '/account/signup',
      { email: 'csrf-less@example.com', password: PASSWORD, organisation: 'X' },
      { csrf: false },
    );
    expect(without.statusCode).toBe(403);
    expect(mainText(without.body)).toContain('This form was not accepted');
    const other = formClient(site.app);
    await other.get('/account/signup');
    await client.get('/account/signup');
    const token = client.csrf();
    const foreign = await client.post(
      '/account/signup',
      { _csrf: other.csrf(), email: 'csrf-foreign@example.com', password: PASSWORD, organisation: 'X' },
      { csrf: false },
    );
    expect(foreign.statusCode).toBe(403);
    const noCookie = formClient(site.app);
    const bare = await noCookie.post('/account/signout', { _csrf: token }, { csrf: false });
    expect(bare.statusCode).toBe(403);
    expect(await site.t.runtime.sql.get("SELECT count(*) AS n FROM users WHERE email LIKE 'csrf-%'")).toEqual({ n: 0 });
  });

  it("a cookie-and-token pair from another session, planted beside the victim's session, is refused", async () => {
    const { sql } = site.t.runtime;
    const victim = await accountWith('csrf-victim@example.com');
    const keysOf = async () =>
      (await sql.get<{ n: number }>(
        "SELECT count(*) AS n FROM api_keys k JOIN users u ON u.client_id = k.client_id WHERE u.email = 'csrf-victim@example.com'",
      ))!.n;
    const csrfCookie = '__Host-taxcert-csrf';
    const sessionCookie = '__Host-taxcert-session';
    // The attacker's own pairs: one made before signing in, one made in the attacker's own session.
    const attacker = formClient(site.app);
    await attacker.get('/account/signin');
    const planted = [{ cookie: attacker.cookies.get(csrfCookie)!, token: attacker.csrf() }];
    const own = await accountWith('csrf-attacker@example.com');
    await own.get('/account/keys');
    planted.push({ cookie: own.cookies.get(csrfCookie)!, token: own.csrf() });
    for (const pair of planted) {
      const res = await site.app.inject({
        method: 'POST',
        url: '/account/keys',
        headers: {
          cookie: `${sessionCookie}=${victim.cookies.get(sessionCookie)}; ${csrfCookie}=${pair.cookie}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ _csrf: pair.token, name: 'planted', env: 'live' }).toString(),
      });
      expect(res.statusCode).toBe(403);
      expect(mainText(res.body)).toContain('This form was not accepted');
    }
    expect(await keysOf()).toBe(0);
    // The victim's own form, with its own pair, still works.
    await victim.get('/account/keys');
    expect((await victim.post('/account/keys', { name: 'mine', env: 'live' })).statusCode).toBe(201);
    expect(await keysOf()).toBe(1);
  });

  it('a form whose session ended before it was sent asks to sign in again', async () => {
    const client = await accountWith('csrf-ended@example.com');
    await client.get('/account/keys');
    site.clock.offsetMs = 31 * 60_000;
    try {
      const res = await client.post('/account/keys', { name: 'late', env: 'live' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/account/signin?next=%2Faccount&ended=1');
    } finally {
      site.clock.offsetMs = 0;
    }
  });

  it('every form on every page carries its token', async () => {
    for (const url of PAGES) {
      const res = await signedIn.get(url);
      const posts = [...res.body.matchAll(/<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/g)];
      expect(posts.length, url).toBeGreaterThan(0);
      for (const [, inner] of posts) expect(inner, url).toMatch(/name="_csrf" value="[^"]+"/);
    }
  });
});

describe('bad input: the form again with a message, or a page that says so, never a 500', () => {
  const bodies: Record<string, string>[] = [
    {},
    { email: '' },
    {
      email: 'x'.repeat(5000),
      password: 'y'.repeat(5000),
      organisation: 'z'.repeat(5000),
      name: 'n'.repeat(5000),
      env: 'prod',
      token: '../../etc',
      item: 'plan:enterprise',
      next: 'https://evil.example',
    },
    {
      email: '<script>alert(1)</script>@example.com',
      organisation: '<b>bold</b>',
      name: '"><img src=x>',
      search: '"><img src=x>=<script>alert(1)</script>',
    },
    { 'email[0]': 'a@b.co', 'password[x]': 'p', __proto__: 'x', constructor: 'y' },
  ];
  const posts = [
    '/account/signup',
    '/account/signin',
    '/account/reset',
    '/account/verify',
    '/account/keys',
    '/account/billing/checkout',
    '/account/keys/key_AAAAAAAAAAAA/revoke',
    '/account/keys/nope/rotate',
    '/account/saved-searches',
    '/account/saved-searches/ss_AAAAAAAAAAAAAAAA/rename',
    '/account/portfolios',
    '/account/portfolios/pf_AAAAAAAAAAAAAAAA/delete',
    '/account/portfolios/pf_AAAAAAAAAAAAAAAA/calendar',
  ];

  it('answers each post with a page, escapes what it echoes', async () => {
    for (const url of posts) {
      for (const fields of bodies) {
        await signedIn.get('/account/keys');
        const res = await signedIn.post(url, fields);
        expect(res.statusCode, `${url} ${JSON.stringify(fields).slice(0, 80)}`).toBeLessThan(500);
        expect(res.statusCode).not.toBe(403);
        if (res.statusCode !== 303) expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).not.toContain('<script>alert(1)</script>');
        expect(res.body).not.toContain('"><img src=x>');
      }
    }
    // The same field twice arrives as a list: refused like a missing one.
    await signedIn.get('/account/keys');
    const twice = await site.app.inject({
      method: 'POST',
      url: '/account/keys',
      headers: {
        cookie: [...signedIn.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `_csrf=${encodeURIComponent(signedIn.csrf())}&name=a&name=b&env=live`,
    });
    expect(twice.statusCode).toBe(400);
    expect(mainText(twice.body)).toContain('Enter a name for the key.');
  });

  it('a body that is not a form, or too large, is a page too', async () => {
    const cookie = [...signedIn.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const json = await site.app.inject({
      method: 'POST',
      url: '/account/signin',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"email":"a"}',
    });
    expect(json.statusCode).toBe(415);
    expect(json.headers['content-type']).toBe('text/html; charset=utf-8');
    const huge = await site.app.inject({
      method: 'POST',
      url: '/account/signin',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${'a'.repeat(20_000)}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(mainText(huge.body)).toContain('This request was not accepted');
  });

  it('sign-up redisplays the form with each field’s message and the values given (never the password)', async () => {
    const client = formClient(site.app);
    await client.get('/account/signup');
    const res = await client.post('/account/signup', { email: 'not-an-address', password: 'short one', organisation: 'Ümlaut & Co' });
    expect(res.statusCode).toBe(400);
    const text = mainText(res.body);
    expect(text).toContain('Enter an email address such as name@example.com.');
    expect(res.body).toContain('value="not-an-address"');
    expect(res.body).toContain('value="Ümlaut &amp; Co"');
    expect(res.body).not.toContain('short one');
    expect(res.body).toMatch(/id="email"[^>]*aria-invalid="true"/);
  });
});
