import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { setClient } from '../../../../services/control/billing/clients.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { listEndpoints } from '../../../../services/control/feed/webhook-endpoints.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { DESKTOP, launchBrowser, screenshots, seriousViolations } from '../../../helpers/browser.ts';

/**
 * /account/webhooks in a real browser against the real API process: a Pro client adds an
 * endpoint, sees its signing secret once (with the copy button), then the list without it.
 * Every page on the way passes axe (no serious or critical violation) and is photographed.
 */
let site: AccountSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const PASSWORD = 'a long and unguessable passphrase';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.close();
});

async function visited(name: string): Promise<void> {
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshots(page, name);
}

describe('webhook endpoints on the account page', () => {
  it('adds an endpoint, shows its secret once, and lists it without the secret', async () => {
    const { sql } = site.t.runtime;
    const email = 'hooks@example.com';
    const made = await createTrialAccount(sql, {
      organisation: 'Hooks LLC',
      email,
      passwordHash: await hashPassword(PASSWORD),
      now: new Date(),
    });
    await markEmailVerified(sql, made.user.id, new Date());
    await setClient(sql, made.client.id, { plan: 'pro' });

    await page.goto(`${site.url}/account/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(/\/account\/webhooks$/);
    await visited('webhooks-empty');

    // A bad address comes back as the form with the message beside the field.
    await page.getByLabel('Address').fill('ftp://hooks.example.com/in');
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    expect(await page.locator('#url-error').textContent()).toContain('https://');
    await visited('webhooks-error');

    await page.getByLabel('Address').fill('https://hooks.example.com/in');
    await page.getByLabel('certificate.updated').uncheck();
    await page.getByLabel('Counties (optional)').fill('Miami-Dade');
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your new webhook endpoint');
    const secret = (await page.locator('.secret code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByRole('heading', { name: /^Signing secret for/ }).textContent()).toBe(
      'Signing secret for https://hooks.example.com/in',
    );
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await visited('webhook-secret');

    const [endpoint] = await listEndpoints(sql, made.client.id);
    expect(endpoint).toMatchObject({ url: 'https://hooks.example.com/in', counties: ['miami-dade'] });
    expect(endpoint!.types).not.toContain('certificate.updated');

    await page.getByRole('link', { name: 'Back to your webhooks' }).click();
    await page.waitForURL(/\/account\/webhooks$/);
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator('main table').textContent()).toContain('https://hooks.example.com/in');
    await visited('webhooks-list');

    await page.getByRole('link', { name: /Deliveries/ }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhook deliveries');
    await visited('webhook-deliveries');
  });
});
