import type { Browser, BrowserContext, Page } from 'playwright-core';
import { rollUp } from '../../../helpers/rollups.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { setClient } from '../../../../services/control/billing/clients.ts';
import { listSavedSearches } from '../../../../services/control/feed/saved-searches.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { DESKTOP, launchBrowser, PHONE, screenshots, seriousViolations } from '../../../helpers/browser.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * The explorer in a real browser against the real API process: sign in, search, narrow with a
 * facet link and a range box, and the count and the bid-rate histogram are the API's answers for
 * the same parameters; open a certificate, quote a day, save the search, add it to a portfolio.
 * Each page passes axe at phone and desktop widths, and the search is used by keyboard alone.
 */
let site: AccountSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let key: string;
let clientId: string;
const refusedByCsp: string[] = [];

const EMAIL = 'explorer@example.com';
const PASSWORD = 'an analyst with a long passphrase';

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 12 });
  const writer = createBulkWriter(site.t.runtime.opensearch, {
    index: aliasName(site.t.config.INDEX_PREFIX, 'certificates'),
    refresh: true,
  });
  for (let i = 0; i < 10; i++) {
    const record = sampleCertificate(
      { county_slug: 'lee', county_name: 'Lee', ...(i % 2 === 0 ? { tax_year: 2022, sale_date: '2023-06-01' } : {}) },
      200 + i,
    );
    await writer.add(record.id, record);
  }
  expect((await writer.flush()).failed).toBe(0);
  await rollUp(site.t.runtime.opensearch, site.t.config.INDEX_PREFIX);
  const { sql } = site.t.runtime;
  const made = await createTrialAccount(sql, {
    organisation: 'Explorer LLC',
    email: EMAIL,
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, made.user.id, new Date());
  await setClient(sql, made.client.id, { plan: 'developer' });
  clientId = made.client.id;
  key = (await createKey(sql, { clientId, env: 'live', prefix: site.t.config.KEY_PREFIX, secret: site.t.config.KEY_HASH_SECRET })).raw;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  // The CSP refuses anything not from our origin, and any inline script or style: the browser says so here.
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refusedByCsp.push(m.text());
  });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.close();
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${site.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Accessible at both widths (no serious or critical axe violation), and photographed. */
async function checked(name: string): Promise<void> {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    expect(await seriousViolations(page), `${name} at ${viewport.width}px`).toEqual([]);
  }
  await screenshots(page, name);
}

describe('the explorer in a browser', () => {
  it('searches, narrows, matches the API, opens a certificate, quotes, saves and adds to a portfolio', async () => {
    await page.goto(`${site.url}/account/explore`);
    expect(page.url()).toContain('/account/signin');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/explore$/);
    await checked('explore');

    // Keyboard only: into the text box, type, and submit with Enter.
    await page.keyboard.press('Tab');
    const focused = async () => page.evaluate<string>('document.activeElement?.id ?? ""');
    let guard = 0;
    while ((await focused()) !== 'query' && guard++ < 40) await page.keyboard.press('Tab');
    expect(await focused()).toBe('query');
    await page.keyboard.type('Smith');
    await page.keyboard.press('Enter');
    await page.waitForURL(/query=Smith/);

    // Narrow with a facet link (county Lee), then a range (face from 150), through the form.
    await page.goto(`${site.url}/account/explore`);
    await page.locator('[data-facet="county"]').getByRole('link', { name: 'Lee' }).click();
    await page.waitForURL(/county=lee/);
    await page.getByLabel('Face amount from (USD)').fill('150');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/face_min=150/);
    const total = Number(await page.locator('#total').getAttribute('data-total'));
    const searched = await api<{ pagination: { total: number } }>('/api/v1/certificates/search?county=lee&face_min=150');
    expect(total).toBe(searched.pagination.total);
    expect(total).toBeGreaterThan(0);
    const histogram = (
      await api<{ data: { histogram: { rate: number; certificates: number }[] } }>('/api/v1/analytics/bid-rates?county=lee')
    ).data.histogram;
    const rows = await page
      .locator('#table-bid-rates tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => ({ rate: Number(tr.getAttribute('data-x')), certificates: Number(tr.getAttribute('data-y')) })),
      );
    expect(rows).toEqual(histogram.map((b) => ({ rate: b.rate, certificates: b.certificates })));
    // The library drew the chart from our own origin (the CSP allows no other).
    expect(await page.evaluate<string>('typeof window.Chart')).toBe('function');
    await checked('explore-narrowed');

    // Save the search.
    await page.getByLabel('Name').fill('Lee over 150');
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.waitForURL(/\/account\/saved-searches\/ss_/);
    const saved = (await listSavedSearches(site.t.runtime.sql, clientId, { limit: 10, offset: 0 })).rows;
    expect(saved.map((s) => s.params)).toEqual([{ county: ['lee'], face_min: 150 }]);

    // A portfolio to add to, then a certificate's page, its quote for a day, and the add.
    await page.goto(`${site.url}/account/portfolios`);
    await page.getByLabel('Name').fill('Watch list');
    await page.getByRole('button', { name: 'Make the portfolio' }).click();
    await page.goto(`${site.url}/account/explore?county=lee&face_min=150`);
    await page.locator('.results tbody a').first().click();
    await page.waitForURL(/\/account\/explore\/certificates\/cert_/);
    await page.getByLabel('Quote for the day').fill('2025-06-01');
    await page.getByRole('button', { name: 'Quote' }).click();
    await page.waitForURL(/date=2025-06-01/);
    expect(await page.locator('#quote-as-of').textContent()).toContain('As of 1 June 2025');
    await checked('explore-certificate');
    await page.getByRole('button', { name: 'Add to portfolio' }).click();
    await page.waitForURL(/notice=position-added/);
    const held = await site.t.runtime.sql.all<{ n: number }>(
      'SELECT count(*) AS n FROM portfolio_positions p JOIN portfolios f ON f.id = p.portfolio_id WHERE f.client_id = ?',
      [clientId],
    );
    expect(Number(held[0]!.n)).toBe(1);
    expect(refusedByCsp).toEqual([]);
  });
});
