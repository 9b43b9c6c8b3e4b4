import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listKeys } from '../../../../services/control/billing/api-keys.ts';
import { getClient, suspendClient } from '../../../../services/control/billing/clients.ts';
import { findUserByEmail } from '../../../../services/control/accounts/users.ts';
import { type AccountSite, DAY_MS, openAccountSite } from '../../../helpers/account-site.ts';
import { DESKTOP, launchBrowser, screenshots, seriousViolations } from '../../../helpers/browser.ts';
import { linkIn } from '../../../helpers/smtp.ts';

/**
 * The account page's security promises, in a real browser: a wrong password, a replayed reset link,
 * a form posted without its CSRF token, an ended session, the trial's cap after day 7 (the site's
 * clock moved, not waited for) and a suspended client's user.
 */
let site: AccountSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  site = await openAccountSite(import.meta.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
beforeEach(async () => {
  site.clock.offsetMs = 0;
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

const PASSWORD = 'correct horse battery staple';

async function signUpAndConfirm(email: string, organisation = 'Security Tests LLC'): Promise<void> {
  await page.goto(`${site.url}/account/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Organisation').fill(organisation);
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await page.goto(linkIn(await site.smtp.waitFor(email, { subject: /confirm/i })));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await page.waitForURL(/\/account\/keys/);
}

async function signIn(email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function createKey(name: string): Promise<string> {
  await page.goto(`${site.url}/account/keys`);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create the key' }).click();
  return page.getByRole('textbox', { name: new RegExp(name) }).inputValue();
}

const heading = () => page.getByRole('heading', { level: 1 }).textContent();
const fact = (label: string) =>
  page
    .locator('dl.facts div', { has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .textContent();
const call = (key: string) =>
  fetch(`${site.url}/api/v1/certificates/search?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

describe('sign-in', () => {
  it('a wrong password and an unknown address get the same words; the right password signs in', async () => {
    const email = 'wrong-password@example.com';
    await signUpAndConfirm(email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/signin/);

    await signIn(email, 'not the password at all');
    const wrong = await page.getByRole('alert').textContent();
    expect(wrong).toContain('The email address or the password is wrong.');
    expect(await heading()).toBe('Sign in');
    // The address stays filled in, the password never comes back.
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'signin-wrong-password');

    await signIn('nobody-here@example.com', 'not the password at all');
    expect(await page.getByRole('alert').textContent()).toBe(wrong);

    await signIn(email, PASSWORD);
    await page.waitForURL(`${site.url}/account`);
    expect(await heading()).toBe('Overview');
  });

  it('a session ends after 30 idle minutes: the page asks to sign in again and returns where it was', async () => {
    const email = 'idle@example.com';
    await signUpAndConfirm(email);
    site.clock.offsetMs = 29 * 60_000;
    await page.goto(`${site.url}/account/billing`);
    expect(await heading()).toBe('Plans and packs');
    // 29 minutes after the last request, then 31 more without one.
    site.clock.offsetMs += 31 * 60_000;
    await page.goto(`${site.url}/account/keys`);
    expect(page.url()).toContain('/account/signin');
    expect(await page.getByRole('alert').textContent()).toContain('Your session ended');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'signin-session-ended');
    await signIn(email, PASSWORD);
    await page.waitForURL(`${site.url}/account/keys`);
    expect(await heading()).toBe('API keys');
  });
});

describe('password reset', () => {
  it('works once: the link opened again after use no longer works, and only the new password signs in', async () => {
    const email = 'reset@example.com';
    await signUpAndConfirm(email);
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'reset-request');
    const before = site.smtp.messages.length;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await heading()).toBe('Check your email');
    const link = linkIn(await site.smtp.waitFor(email, { subject: /reset/i, after: before }));
    expect(link).toMatch(new RegExp(`^${site.url}/account/reset\\?token=[A-Za-z0-9_-]{43}$`));

    await page.goto(link);
    expect(await heading()).toBe('Choose a new password');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'reset-password');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('at least 15 characters');
    const newPassword = 'a brand new long passphrase';
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.waitForURL(/\/account\/signin\?notice=password-changed/);

    // Replayed: the same link opened again.
    await page.goto(link);
    expect(await heading()).toBe('This link no longer works');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'reset-link-spent');

    await page.goto(`${site.url}/account/signin`);
    await signIn(email, PASSWORD);
    expect(await page.getByRole('alert').textContent()).toContain('wrong');
    await signIn(email, newPassword);
    await page.waitForURL(`${site.url}/account`);
  });

  it('the reset form of a link already spent in another tab refuses the second password', async () => {
    const email = 'reset-twice@example.com';
    await signUpAndConfirm(email);
    const before = site.smtp.messages.length;
    await page.goto(`${site.url}/account/reset`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    const link = linkIn(await site.smtp.waitFor(email, { subject: /reset/i, after: before }));
    const other = await context.newPage();
    await page.goto(link);
    await other.goto(link);
    await page.getByLabel('Password').fill('first new long passphrase');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.waitForURL(/password-changed/);
    await other.getByLabel('Password').fill('second new long passphrase');
    await other.getByRole('button', { name: 'Save the new password' }).click();
    // The second tab's form was made in the session the first tab's new password ended, and its
    // CSRF token is bound to that session: refused before the spent link is even looked at.
    expect(await other.getByRole('heading', { level: 1 }).textContent()).toBe('This form was not accepted');
    await other.goto(link);
    expect(await other.getByRole('heading', { level: 1 }).textContent()).toBe('This link no longer works');
    expect(await findUserByEmail(site.t.runtime.sql, email)).not.toBeNull();
  });
});

describe('CSRF', () => {
  it('a form posted without its token is refused and changes nothing', async () => {
    const email = 'csrf@example.com';
    await signUpAndConfirm(email);
    await page.goto(`${site.url}/account/keys`);
    await page.getByLabel('Name').fill('forged');
    await page.locator('form[action="/account/keys"] input[name="_csrf"]').evaluate((input) => input.remove());
    await page.getByRole('button', { name: 'Create the key' }).click();
    expect(await heading()).toBe('This form was not accepted');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'csrf-refused');
    const clientId = (await findUserByEmail(site.t.runtime.sql, email))!.clientId;
    expect(await listKeys(site.t.runtime.sql, clientId)).toEqual([]);

    // The same post with a token from another browser (its own cookie) is refused too.
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`${site.url}/account/signin`);
    const foreign = await strangerPage.locator('input[name="_csrf"]').first().inputValue();
    await stranger.close();
    await page.goto(`${site.url}/account/keys`);
    await page.locator('form[action="/account/keys"] input[name="_csrf"]').evaluate((input, value) => {
      (input as unknown as { value: string }).value = value;
    }, foreign);
    await page.getByLabel('Name').fill('forged');
    await page.getByRole('button', { name: 'Create the key' }).click();
    expect(await heading()).toBe('This form was not accepted');
    expect(await listKeys(site.t.runtime.sql, clientId)).toEqual([]);
  });
});

describe('the free trial', () => {
  it('after day 7 the overview shows the balance capped at 100 credits, as the API then charges it', async () => {
    const email = 'trial@example.com';
    site.clock.offsetMs = -8 * DAY_MS;
    await signUpAndConfirm(email);
    const key = await createKey('trial key');
    await page.goto(`${site.url}/account`);
    expect(await fact('Trial credits left')).toBe('500 of 500');
    expect(await page.locator('.trial').textContent()).toContain('Full access until');

    // Eight days on: the session (12 hours at most) has ended too.
    site.clock.offsetMs = 0;
    await page.goto(`${site.url}/account`);
    expect(page.url()).toContain('/account/signin');
    await signIn(email, PASSWORD);
    await page.waitForURL(`${site.url}/account`);
    expect(await fact('Trial credits left')).toBe('100 of 500');
    const signedUp = (await getClient(site.t.runtime.sql, (await findUserByEmail(site.t.runtime.sql, email))!.clientId))!.createdAt;
    const ended = new Date(Date.parse(signedUp) + 7 * DAY_MS);
    expect(await page.locator('.trial').textContent()).toContain(
      `seven days of full access ended on ${ended.getUTCDate()} ${ended.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })} ${ended.getUTCFullYear()}, so your balance was capped at 100 credits`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'overview-trial-capped');

    // The API agrees: one call takes one of the 100.
    expect(await call(key)).toBe(200);
    await page.reload();
    expect(await fact('Trial credits left')).toBe('99 of 500');
  });
});

describe('a suspended client', () => {
  it('its user signs in and reads why; its keys stay refused and no new key can be made', async () => {
    const email = 'suspended@example.com';
    await signUpAndConfirm(email);
    const key = await createKey('soon refused');
    expect(await call(key)).toBe(200);
    await suspendClient(
      site.t.runtime.sql,
      (await findUserByEmail(site.t.runtime.sql, email))!.clientId,
      'The invoice of March is unpaid.',
    );
    expect(await call(key)).toBe(401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(email, PASSWORD);
    await page.waitForURL(`${site.url}/account`);
    const alert = await page.getByRole('alert').textContent();
    expect(alert).toContain('Your account is suspended');
    expect(alert).toContain('The invoice of March is unpaid.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'overview-suspended');
    await page.getByRole('link', { name: 'Keys' }).click();
    expect(await page.getByRole('button', { name: 'Create the key' }).count()).toBe(0);
    expect(await call(key)).toBe(401);
  });
});
