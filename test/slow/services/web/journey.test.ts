import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { DESKTOP, launchBrowser, screenshots, seriousViolations } from '../../../helpers/browser.ts';
import { linkIn } from '../../../helpers/smtp.ts';

/**
 * A new customer's whole journey on the account page, in a real browser against the real API
 * process (OpenSearch, Redis, SQLite, SMTP): sign up, receive the mail, confirm, create a key, call
 * the API with it, see the request on the overview and its chart, revoke, and the next call is 401.
 * Every page on the way passes axe (no serious or critical violation) and is saved as a screenshot
 * at phone and desktop widths.
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
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

/** The checks every page of the journey gets: accessible, and photographed. */
async function visited(name: string): Promise<void> {
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshots(page, name);
}

const search = (key: string) => fetch(`${site.url}/api/v1/certificates/search?limit=1`, { headers: { authorization: `Bearer ${key}` } });

describe('from sign-up to a working key, and its revocation', () => {
  it('signs up, confirms by mail, makes a key, uses it, sees it counted, revokes it', async () => {
    const email = 'journey@example.com';
    await page.goto(`${site.url}/account/signup`);
    await visited('signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Organisation').fill('Journey Liens LLC');
    await page.getByRole('button', { name: 'Create the account' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check your email');
    await visited('check-email');

    const mail = await site.smtp.waitFor(email, { subject: /confirm/i });
    const link = linkIn(mail);
    expect(link).toMatch(new RegExp(`^${site.url}/account/verify\\?token=[A-Za-z0-9_-]{43}$`));
    await page.goto(link);
    await visited('verify');
    await page.getByLabel('Password').fill('a long and unguessable passphrase');
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await page.waitForURL(/\/account\/keys/);
    expect(await page.getByRole('status').first().textContent()).toContain('confirmed');

    await page.getByLabel('Name').fill('price feed');
    await page.getByLabel(/^Live/).check();
    await visited('keys-empty');
    await page.getByRole('button', { name: 'Create the key' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your new API key');
    const key = await page.getByRole('textbox', { name: /price feed/ }).inputValue();
    expect(key).toMatch(/^txc_live_[0-9A-Za-z]{32}$/);
    // The copy button is shown only where the script runs; it copies the key.
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await visited('key-created');

    // The key works at once, against the real engine.
    const answer = await search(key);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: unknown[] }).data).toHaveLength(1);

    // Shown once: the list has its last four characters only, and a reload of the list never shows it.
    await page.goto(`${site.url}/account/keys`);
    const listed = await page.content();
    expect(listed).not.toContain(key);
    expect(listed).toContain(`…${key.slice(-4)}`);
    expect(await page.getByRole('row', { name: /price feed/ }).textContent()).toMatch(/live.*Active/s);
    await visited('keys');

    // The overview counts the request as GET /api/v1/account/usage does, and draws it.
    const usage = (await (await fetch(`${site.url}/api/v1/account/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      data: { events_count: number; monthly_quota: number; percent_used: number };
    };
    expect(usage.data).toMatchObject({ events_count: 1, monthly_quota: 500, percent_used: 0.2 });
    await page.goto(`${site.url}/account`);
    const fact = (label: string) => page.locator('dl.facts div', { has: page.locator('dt', { hasText: label }) }).locator('dd');
    expect(await fact('Requests this month').textContent()).toBe('1');
    expect(await fact('Monthly quota').textContent()).toBe('500');
    expect(await fact('Used').textContent()).toBe('0.20 %');
    expect(await fact('Trial credits left').textContent()).toBe('499 of 500');
    const today = new Date();
    const chart = page.getByRole('img', { name: /Requests per day/ });
    expect(await chart.locator('rect.bar title').allTextContents()).toEqual([
      `${today.getUTCDate()} ${today.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })}: 1 request`,
    ]);
    await page.getByText('The numbers, day by day').click();
    expect(await page.getByRole('row', { name: new RegExp(`^${today.getUTCDate()} \\w+ 1$`) }).count()).toBe(1);
    await visited('overview');

    // Revoke: confirm, and the very next call is refused.
    await page.goto(`${site.url}/account/keys`);
    await page.getByRole('link', { name: /^Revoke price feed/ }).click();
    await visited('revoke-confirm');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('revoked');
    expect(await page.getByRole('row', { name: /price feed/ }).textContent()).toMatch(/Revoked/);
    expect((await search(key)).status).toBe(401);

    // The pages left: the sign-out page and a page that is not there.
    await page.goto(`${site.url}/account/signout`);
    await visited('signout');
    await page.goto(`${site.url}/account/no-such-page`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await visited('not-found');
    await page.goto(`${site.url}/account/signout`);
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/signin\?notice=signed-out/);
    await visited('signin');
  });

  it('rotates a key: the new one first, the old one works until revoked from the same page', async () => {
    const email = 'rotate@example.com';
    await page.goto(`${site.url}/account/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Organisation').fill('Rotate Co');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.goto(linkIn(await site.smtp.waitFor(email)));
    await page.getByLabel('Password').fill('another long passphrase here');
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await page.getByLabel('Name').fill('batch job');
    await page.getByRole('button', { name: 'Create the key' }).click();
    const old = await page.getByRole('textbox', { name: /batch job/ }).inputValue();

    await page.goto(`${site.url}/account/keys`);
    await page.getByRole('link', { name: /^Rotate batch job/ }).click();
    await page.getByRole('button', { name: 'Make the new key' }).click();
    const fresh = await page.getByRole('textbox', { name: /batch job/ }).inputValue();
    expect(fresh).not.toBe(old);
    await visited('key-rotated');
    expect((await search(old)).status).toBe(200);
    expect((await search(fresh)).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke the old key' }).click();
    expect((await search(old)).status).toBe(401);
    expect((await search(fresh)).status).toBe(200);
  });

  it('shows the plans and packs with their prices, and a test-mode checkout buys a pack', async () => {
    const email = 'packs@example.com';
    await page.goto(`${site.url}/account/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Organisation').fill('Pack Buyers');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.goto(linkIn(await site.smtp.waitFor(email)));
    await page.getByLabel('Password').fill('packs and plans passphrase');
    await page.getByRole('button', { name: 'Confirm my email address' }).click();

    await page.getByRole('link', { name: 'Plans and packs' }).click();
    expect(await page.getByRole('row', { name: /^Developer/ }).textContent()).toMatch(/19 USD a month.*10,000.*60/s);
    expect(await page.getByRole('row', { name: /^Power/ }).textContent()).toMatch(/100,000.*349 USD.*3\.49 USD/s);
    expect(await page.getByRole('note').first().textContent()).toContain('Test mode');
    await visited('billing');
    await page.getByRole('button', { name: 'Buy the Starter pack' }).click();
    expect(await page.getByText('Test mode: no payment is taken.').isVisible()).toBe(true);
    await visited('checkout');
    await page.getByRole('button', { name: 'Confirm (test mode)' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('pack is added');
    await page.getByRole('link', { name: 'Overview' }).click();
    expect(await page.getByRole('row', { name: /Starter pack/ }).textContent()).toMatch(/1,000 of 1,000/);
  });
});
