import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { readRedemptionQuote } from '../../../../../../services/api/routes/certificate-quotes/read.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { manifestJobs } from '../../../../../../services/process/manifest-jobs.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';

/**
 * One redemption rule everywhere (the API's quote, the generator, ingest validation): the demo data
 * set, ingested by the real worker into this file's prefix, and the quote of every redeemed
 * certificate on its redeemed_date, which must be the redemption_amount the data carries.
 */
describe('the demo data agrees with the redemption quote', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    const { jobs } = manifestJobs(fileURLToPath(new URL('../../../../../../fixtures/demo/manifest.json', import.meta.url)));
    const outcomes = await enqueueFiles(t.runtime, jobs, { wait: true });
    expect(outcomes.filter((o) => o.status !== 'succeeded')).toEqual([]);
    app = await buildApp(t.runtime);
    auth = await apiKeyHeaders(t.runtime);
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    if (t) await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t?.teardown();
  });

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };

  it("quotes every redeemed certificate's redemption_amount on its redeemed_date", async () => {
    const redeemed: { id: string; redeemed_date: string; redemption_amount: number }[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await get(`/api/v1/certificates/search?status=redeemed&limit=500&offset=${offset}`);
      redeemed.push(...page.data);
      if (!page.pagination.has_more) break;
    }
    expect(redeemed.length).toBeGreaterThan(300);
    const wrong: string[] = [];
    // Every redeemed certificate through the read function the route and the MCP tool both call
    // (the demo market holds more redeemed certificates than an Enterprise key may request in a
    // minute), and every 25th of them through REST as well, which must answer the same quote.
    const viaRest = new Set(redeemed.filter((_, i) => i % 25 === 0).map((c) => c.id));
    for (let i = 0; i < redeemed.length; i += 16) {
      await Promise.all(
        redeemed.slice(i, i + 16).map(async (c) => {
          const params = { id: c.id, date: c.redeemed_date };
          const quote = (await readRedemptionQuote(t.runtime, params)).data;
          if (!quote.redeemable || quote.holder_amount !== c.redemption_amount)
            wrong.push(`${c.id} redeemed ${c.redeemed_date} for ${c.redemption_amount}: quoted ${JSON.stringify(quote)}`);
          if (viaRest.has(c.id)) {
            const rest = (await get(`/api/v1/certificates/${c.id}/redemption?date=${c.redeemed_date}`)).data;
            if (JSON.stringify(rest) !== JSON.stringify(quote))
              wrong.push(`${c.id}: REST ${JSON.stringify(rest)} differs from ${JSON.stringify(quote)}`);
          }
        }),
      );
    }
    expect(viaRest.size).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  }, 300_000);
});
