import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../services/control/billing/api-keys.ts';
import { createTrialAccount } from '../../../../services/control/accounts/accounts.ts';
import { setClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents } from '../../../../services/control/feed/events.ts';
import { hashPassword } from '../../../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../../../services/control/accounts/users.ts';
import { fanOut, listDeliveries, recordOutcomes } from '../../../../services/control/feed/webhook-deliveries.ts';
import { listEndpoints } from '../../../../services/control/feed/webhook-endpoints.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';
import { DESKTOP, launchBrowser, PHONE, SCREENSHOTS, seriousViolations } from '../../../helpers/browser.ts';

/**
 * Every page of the account, the front page and /docs in a real browser at a phone's width (390 px)
 * and a desktop's (1280 px): nothing wider than the screen (no sideways scroll), every cell and
 * button of the keys, billing, webhook and saved-search tables on screen, the chart's labels at a readable
 * size, a url field styled like the others, the webhook secret in monospace with a working copy
 * button, one number per delivery attempt, the icon served, no CSP error on /docs, and / linking
 * three addresses that answer. Each page passes axe and is photographed at its width.
 */
// The callbacks below run in the page. The project compiles against Node's types alone, so the few
// browser globals they touch are declared here, for this file only.
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  addEventListener(
    type: 'securitypolicyviolation',
    listener: (e: { violatedDirective: string; sourceFile: string; lineNumber: number; sample: string }) => void,
  ): void;
};
declare const window: { cspViolations: string[] };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare function getComputedStyle(
  element: unknown,
  pseudo?: string,
): Record<
  | 'fontSize'
  | 'fontFamily'
  | 'content'
  | 'listStyleType'
  | 'borderTopWidth'
  | 'borderTopStyle'
  | 'borderTopColor'
  | 'paddingLeft'
  | 'borderTopLeftRadius',
  string
>;
declare class Image {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  decode(): Promise<void>;
}

let site: AccountSite;
let browser: Browser;
const PASSWORD = 'a long and unguessable passphrase';
const EMAIL = 'widths@example.com';
let clientId: string;

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 3 });
  browser = await launchBrowser();
  const { sql, config } = site.t.runtime;
  const made = await createTrialAccount(sql, {
    organisation: 'Widths Liens LLC',
    email: EMAIL,
    passwordHash: await hashPassword(PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, made.user.id, new Date());
  await setClient(sql, made.client.id, { plan: 'pro' });
  clientId = made.client.id;
  // Keys with long names, so a narrow screen has something to wrap; one is used so the chart has a bar.
  const live = await createKey(sql, {
    clientId,
    env: 'live',
    prefix: config.KEY_PREFIX,
    secret: config.KEY_HASH_SECRET,
    name: 'nightly price feed for the Miami-Dade desk',
  });
  await createKey(sql, { clientId, env: 'test', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET, name: 'staging' });
  const used = await fetch(`${site.url}/api/v1/certificates/search?limit=1`, { headers: { authorization: `Bearer ${live.raw}` } });
  expect(used.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** What one width's visit saw go wrong on the wire: answers of 400 and above, and requests that failed. */
interface Visit {
  context: BrowserContext;
  page: Page;
  failures: string[];
  icons: { url: string; status: number }[];
}

async function open(viewport: typeof PHONE): Promise<Visit> {
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
  const failures: string[] = [];
  const icons: Visit['icons'] = [];
  context.on('response', (r) => {
    if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    if (/favicon/.test(r.url())) icons.push({ url: r.url(), status: r.status() });
  });
  // A browser cancels a favicon fetch still in flight when the test moves to the next page
  // (net::ERR_ABORTED); that is the browser's choice, not an answer the site gave, so only
  // other failures count. The icon's own answers are still checked through `icons`.
  context.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText ?? '';
    if (reason === 'net::ERR_ABORTED' && /favicon/.test(r.url())) return;
    failures.push(`failed ${r.url()}: ${reason}`);
  });
  // Every CSP refusal on any page, as the page itself sees it.
  await context.addInitScript(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
    );
  });
  return { context, page: await context.newPage(), failures, icons };
}

/** The checks every page gets at every width: no sideways scroll, accessible, photographed. */
async function checked(page: Page, name: string, label: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${name}: document ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
  expect(await seriousViolations(page), name).toEqual([]);
  expect(await page.evaluate(() => window.cspViolations), name).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}widths-${name}-${label}.png`, fullPage: true });
}

/** Every cell, link and button of the page's tables: shown, and wholly inside the window's width. */
async function tablesOnScreen(page: Page, name: string): Promise<number> {
  const width = page.viewportSize()!.width;
  const items = page.locator('main table td, main table th[scope="row"], main table a, main table button');
  const count = await items.count();
  for (let i = 0; i < count; i++) {
    const item = items.nth(i);
    if (await item.evaluate((el) => el.closest('details:not([open])') !== null)) continue;
    const what = `${name}: ${(await item.evaluate((el) => el.outerHTML)).slice(0, 120)}`;
    expect(await item.isVisible(), what).toBe(true);
    const box = (await item.boundingBox())!;
    expect(box.x, what).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, what).toBeLessThanOrEqual(width + 0.5);
  }
  return count;
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${site.url}/account/signin`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/account$/);
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('at %s width', (label, viewport) => {
  let visit: Visit;
  beforeAll(async () => {
    visit = await open(viewport);
    await signIn(visit.page);
  });
  afterAll(async () => visit?.context.close());

  it('/ names the product and links /docs, /explore, /account and the OpenAPI document, each answering 200', async () => {
    const { page } = visit;
    const answer = await page.goto(`${site.url}/`);
    expect(answer?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tax Certificate Data Service');
    await checked(page, 'home', label);
    const hrefs = await page.locator('main a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/docs', '/explore', '/account', '/api/v1/openapi.json']);
    // Without this browser's session: a signed-in visit to /explore would run (and charge) a search,
    // changing the usage the overview's chart below draws.
    for (const href of hrefs) expect((await fetch(`${site.url}${href}`)).status, href!).toBe(200);
  });

  it('the overview: the chart labels at 12 px or more as drawn, the chart within the window', async () => {
    const { page } = visit;
    await page.goto(`${site.url}/account`);
    const labels = await page.locator('.chart text.axis').evaluateAll((texts) =>
      texts.map((t) => {
        const size = Number.parseFloat(getComputedStyle(t).fontSize);
        // The size on screen: the font size times the scale the SVG applies (1 when it does not scale).
        const scale = (t as unknown as { getScreenCTM(): { a: number } | null }).getScreenCTM()?.a ?? 0;
        return { text: t.textContent, drawn: size * scale };
      }),
    );
    expect(labels.map((l) => l.text)).toEqual(expect.arrayContaining(['0', '1', '2', '8', '15', '22']));
    for (const l of labels) expect(l.drawn, `label ${l.text}`).toBeGreaterThanOrEqual(12);
    expect(await page.locator('.chart rect.bar').count()).toBe(1);
    const frame = (await page.locator('.chart-frame').boundingBox())!;
    expect(frame.x + frame.width).toBeLessThanOrEqual(viewport.width);
    await checked(page, 'overview', label);
  });

  it('the keys table: every cell and link on screen, a labelled card per key on a phone', async () => {
    const { page } = visit;
    await page.goto(`${site.url}/account/keys`);
    expect(await tablesOnScreen(page, 'keys')).toBeGreaterThanOrEqual(2 * 7 + 4);
    for (const name of [/^Rotate nightly price feed/, /^Revoke staging/])
      expect(await page.getByRole('link', { name }).isVisible()).toBe(true);
    const before = await page
      .locator('main table td[data-label="Kind"]')
      .first()
      .evaluate((td) => getComputedStyle(td, '::before').content);
    expect(before).toBe(label === 'phone' ? '"Kind"' : 'none');
    await checked(page, 'keys', label);
  });

  it('the billing tables: every plan and pack with its Choose or Buy button on screen', async () => {
    const { page } = visit;
    await page.goto(`${site.url}/account/billing`);
    await tablesOnScreen(page, 'billing');
    const buttons = page.locator('main table button');
    expect(await buttons.count()).toBeGreaterThanOrEqual(4);
    for (const name of ['Choose Growth', 'Buy the Starter pack'])
      expect(await page.getByRole('button', { name }).isVisible(), name).toBe(true);
    await checked(page, 'billing', label);
  });

  it('webhooks: the url field styled as the others; the secret in monospace with a copy button that copies it', async () => {
    const { page } = visit;
    await page.goto(`${site.url}/account/webhooks`);
    const look = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const s = getComputedStyle(el);
        return {
          border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
          padding: s.paddingLeft,
          font: s.fontSize,
          radius: s.borderTopLeftRadius,
          width: el.getBoundingClientRect().width,
        };
      });
    expect(await look('input[type="url"]')).toEqual(await look('input#counties'));
    await checked(page, 'webhooks-form', label);

    const address = `https://hooks.example.com/${label}/a-rather-long-path-for-a-narrow-screen`;
    await page.getByLabel('Address').fill(address);
    await page.getByLabel('Counties (optional)').fill('Broward');
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your new webhook endpoint');
    const code = page.locator('.secret code');
    const secret = (await code.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await code.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/monospace/);
    expect(await page.locator('.secret input').count()).toBe(0);
    const copy = page.getByRole('button', { name: 'Copy' });
    const box = (await copy.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const secretBox = (await code.boundingBox())!;
    expect(secretBox.x + secretBox.width).toBeLessThanOrEqual(viewport.width);
    await copy.click();
    // The page answers once the clipboard has taken the text (an asynchronous write): wait for
    // its answer, whichever it is, then check it. Read at once, it was sometimes still empty.
    const status = page.locator('[data-copy-status="new-secret"]');
    await page.locator('[data-copy-status="new-secret"]:not(:empty)').waitFor();
    expect(await status.textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checked(page, 'webhook-secret', label);

    await page.goto(`${site.url}/account/webhooks`);
    expect(await tablesOnScreen(page, 'webhooks')).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: `Rotate secret of ${address}` }).isVisible()).toBe(true);
    await checked(page, 'webhooks-list', label);
  });

  it('deliveries: one number per attempt ("Attempt 1, ..."), the Replay button on screen', async () => {
    const { page } = visit;
    const { sql } = site.t.runtime;
    const endpoint = (await listEndpoints(sql, clientId)).find((e) => e.url.includes(`/${label}/`))!;
    await appendEvents(sql, [
      { type: 'certificate.cancelled', countySlug: 'broward', data: { object: { id: `cert_${label}` }, previous: { status: 'sold' } } },
    ]);
    await fanOut(sql, 1000);
    const [delivery] = (await listDeliveries(sql, endpoint.id, { limit: 10, offset: 0 })).rows;
    const at = new Date().toISOString();
    await recordOutcomes(
      sql,
      [
        {
          deliveryId: delivery!.id,
          generation: 0,
          attempt: 1,
          startedAt: at,
          durationMs: 12,
          httpStatus: 500,
          error: null,
          responseBody: 'boom',
          endpointId: endpoint.id,
          gone: false,
          next: { kind: 'retry', at },
        },
        {
          deliveryId: delivery!.id,
          generation: 0,
          attempt: 2,
          startedAt: at,
          durationMs: 9,
          httpStatus: 204,
          error: null,
          responseBody: '',
          endpointId: endpoint.id,
          gone: false,
          next: { kind: 'delivered' },
        },
      ],
      3 * 24 * 3600 * 1000,
    );
    await page.goto(`${site.url}/account/webhooks/${endpoint.id}`);
    const attempts = page.locator('main .attempts li');
    const texts = (await attempts.allTextContents()).map((t) => t.trim());
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^Attempt 1, .+ UTC: HTTP 500 \(12 ms\)$/);
    expect(texts[1]).toMatch(/^Attempt 2, .+ UTC: HTTP 204 \(9 ms\)$/);
    // The list draws no number of its own beside the one in the text.
    expect(await attempts.first().evaluate((li) => getComputedStyle(li).listStyleType)).toBe('none');
    expect(await page.locator('main ol').count()).toBe(0);
    await tablesOnScreen(page, 'deliveries');
    expect(await page.getByRole('button', { name: /^Replay evt_/ }).isVisible()).toBe(true);
    await checked(page, 'webhook-deliveries', label);
  });

  it('saved searches: the form, a search with its alerts, the list and the delete confirmation, every cell on screen', async () => {
    const { page } = visit;
    const { sql } = site.t.runtime;
    await page.goto(`${site.url}/account/saved-searches`);
    const look = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const s = getComputedStyle(el);
        return { border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`, padding: s.paddingLeft, font: s.fontSize };
      });
    expect(await look('input#search')).toEqual(await look('input#name'));
    await checked(page, 'saved-searches-form', label);

    const name = `Miami-Dade and St. Johns, sold, face over 2,000 USD (${label})`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Search parameters').fill('county=miami-dade,st-johns&status=sold&face_min=2000&sale_after=2023-06-01');
    await page.getByRole('button', { name: 'Save the search' }).click();
    await page.waitForURL(/\/account\/saved-searches\/ss_[A-Za-z0-9_-]{16}\?notice=saved-search-created$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    const id = /ss_[A-Za-z0-9_-]{16}/.exec(page.url())![0];

    const owner = { clientId, savedSearchId: id };
    const object = {
      id: `cert_${label}_1`,
      certificate_number: '2023-004512-0000-01',
      county_slug: 'miami-dade',
      county_name: 'Miami-Dade',
      tax_year: 2023,
    };
    await appendEvents(sql, [
      { type: 'saved_search.match_added', countySlug: 'miami-dade', data: { saved_search: { id, name }, object, previous: {} }, owner },
      {
        type: 'saved_search.matches_loaded',
        countySlug: 'st-johns',
        data: {
          saved_search: { id, name },
          object: { county_slug: 'st-johns', county_name: 'St. Johns', tax_year: 2024, count: 1250 },
          previous: {},
        },
        owner,
      },
    ]);
    await page.goto(`${site.url}/account/saved-searches/${id}`);
    expect(await tablesOnScreen(page, 'saved-search-alerts')).toBeGreaterThanOrEqual(2 * 5);
    expect(await page.locator('main table tbody tr').count()).toBe(2);
    await checked(page, 'saved-search', label);

    await page.goto(`${site.url}/account/saved-searches`);
    expect(await tablesOnScreen(page, 'saved-searches')).toBeGreaterThan(0);
    await checked(page, 'saved-searches-list', label);
    await page.getByRole('link', { name: `Delete ${name}` }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this saved search?');
    await checked(page, 'saved-search-confirm', label);
    await page.getByRole('button', { name: 'Delete the saved search' }).click();
    await page.waitForURL(/\/account\/saved-searches\?notice=saved-search-deleted$/);
    expect(await page.getByRole('link', { name: `Delete ${name}` }).count()).toBe(0);
  });

  it('/docs draws the operations with no CSP error in the console, from /api/v1/openapi.json', async () => {
    const { page } = visit;
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${site.url}/docs`);
    await page.getByText('/api/v1/certificates/search').first().waitFor();
    await page.locator('.topbar img').waitFor();
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
    expect(await page.locator('.info a[href="/api/v1/openapi.json"]').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}widths-docs-${label}.png` });
  });

  it('the icon answered 200 wherever it was asked for, and nothing on the way answered 404', async () => {
    expect(visit.icons.length).toBeGreaterThan(0);
    expect(visit.icons.filter((i) => i.status !== 200)).toEqual([]);
    expect(visit.failures).toEqual([]);
    const ico = await visit.page.request.get(`${site.url}/favicon.ico`);
    expect(ico.status()).toBe(200);
    // The .ico is an image a browser decodes: 32 px square.
    await visit.page.goto(`${site.url}/`);
    expect(
      await visit.page.evaluate(async () => {
        const img = new Image();
        img.src = '/favicon.ico';
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      }),
    ).toEqual([32, 32]);
  });
});
