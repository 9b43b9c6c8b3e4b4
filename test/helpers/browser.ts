import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Chromium from Debian's package (.ci/run installs it when missing): Playwright never downloads
 * a browser here. One browser per test file, one context per test (Playwright's guidance).
 */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Nothing but the page under test goes out: no QUIC probes, first-run pages, component or sync
 * downloads (a test machine may have no route out, and such traffic would only slow the tests).
 */
const QUIET = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  // Chromium's sandbox refuses to run as root (CI containers): only then is it turned off.
  const root = process.getuid?.() === 0;
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...QUIET, ...(root ? ['--no-sandbox'] : [])] });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** Screenshots go to a git-ignored folder, one per page and width, for a person to look at. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));

export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const size = page.viewportSize() ?? DESKTOP;
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SCREENSHOTS}${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

/** The serious and critical accessibility violations axe finds on the page as it is now (an empty list passes). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
