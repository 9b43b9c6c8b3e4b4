import type { FastifyInstance } from 'fastify';
import { rollUp } from './rollups.ts';
import { createBulkWriter } from '../../indexer/load/bulk.ts';
import { createTrialAccount } from '../../services/control/accounts/accounts.ts';
import { hashPassword, type PasswordHasher } from '../../services/control/accounts/passwords.ts';
import { markEmailVerified } from '../../services/control/accounts/users.ts';
import { setClient } from '../../services/control/billing/clients.ts';
import type { PlanCode } from '../../services/control/billing/plans.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import type { BillingProvider } from '../../services/web/billing/provider.ts';
import { buildSite } from '../../services/web/site.ts';
import { expect } from 'vitest';
import { formClient } from './form-client.ts';
import { heldPort } from './ports.ts';
import { openTestRuntime, type TestRuntime } from './runtime.ts';
import { sampleCertificate } from './sample-certificate.ts';
import { type SmtpInbox, startSmtp } from './smtp.ts';

/**
 * The API process as `taxcert serve` runs it (the API and the account page, buildSite) on a
 * real port, over this test file's own OpenSearch indices (a few certificates loaded), Redis
 * keys and SQLite file, mailing through a real SMTP server. Its clock is the wall clock moved
 * by `clock.offsetMs`, so a test ages a session (idle and absolute expiry) or a trial
 * without waiting.
 */
export interface AccountSite {
  t: TestRuntime;
  app: FastifyInstance;
  /** http://127.0.0.1:<port>, also the PUBLIC_URL mailed links start with. */
  url: string;
  smtp: SmtpInbox;
  /** offsetMs moves the pages' clock; fixedAt (epoch ms), when set, holds it at one instant. */
  clock: { offsetMs: number; fixedAt?: number };
  close(): Promise<void>;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export async function openAccountSite(
  fileUrl: string,
  options: { certificates?: number; env?: Record<string, string>; billing?: BillingProvider | null; passwords?: PasswordHasher } = {},
): Promise<AccountSite> {
  const smtp = await startSmtp();
  const held = await heldPort();
  const port = held.port;
  const url = `http://127.0.0.1:${port}`;
  const t = await openTestRuntime(fileUrl, { PORT: String(port), PUBLIC_URL: url, SMTP_URL: smtp.url, ...options.env });
  const count = options.certificates ?? 12;
  if (count > 0) {
    const writer = createBulkWriter(t.runtime.opensearch, { index: aliasName(t.config.INDEX_PREFIX, 'certificates'), refresh: true });
    for (let n = 0; n < count; n++) {
      const record = sampleCertificate({}, n);
      await writer.add(record.id, record);
    }
    const totals = await writer.flush();
    await rollUp(t.runtime.opensearch, t.config.INDEX_PREFIX);
    if (totals.failed > 0) throw new Error(`seed failed: ${JSON.stringify(totals.failures.slice(0, 3))}`);
  }
  const clock: { offsetMs: number; fixedAt?: number } = { offsetMs: 0 };
  const app = await buildSite({
    ...t.runtime,
    clock: () => new Date(clock.fixedAt ?? Date.now() + clock.offsetMs),
    ...(options.billing !== undefined ? { billing: options.billing } : {}),
    ...(options.passwords !== undefined ? { passwords: options.passwords } : {}),
  });
  await held.release();
  await app.listen({ host: '127.0.0.1', port });
  return {
    t,
    app,
    url,
    smtp,
    clock,
    async close() {
      await app.close();
      await smtp.close();
      // This file's rate-limit windows and sign-in throttles (never FLUSHALL: Redis is shared).
      const keys = await t.runtime.redis.keys(`${t.config.INDEX_PREFIX}-*`).catch(() => [] as string[]);
      if (keys.length > 0) await t.runtime.redis.del(...keys).catch(() => undefined);
      await t.teardown();
    },
  };
}

export const ACCOUNT_PASSWORD = 'correct horse battery staple';
let accounts = 0;

/**
 * A verified account on a plan, signed in to the site by a browser of its own address (so no
 * two share a sign-in limit): what createTrialAccount made, and the browser.
 */
export async function signedInAccount(site: AccountSite, plan: PlanCode) {
  const { sql } = site.t.runtime;
  const n = ++accounts;
  const email = `account-${n}@example.com`;
  const made = await createTrialAccount(sql, {
    organisation: `Account ${n}`,
    email,
    passwordHash: await hashPassword(ACCOUNT_PASSWORD),
    now: new Date(),
  });
  await markEmailVerified(sql, made.user.id, new Date());
  await setClient(sql, made.client.id, { plan });
  const browser = formClient(site.app, { remoteAddress: `10.9.${Math.floor(n / 200)}.${(n % 200) + 1}` });
  await browser.get('/account/signin');
  expect((await browser.post('/account/signin', { email, password: ACCOUNT_PASSWORD })).statusCode).toBe(303);
  return { ...made, browser };
}
