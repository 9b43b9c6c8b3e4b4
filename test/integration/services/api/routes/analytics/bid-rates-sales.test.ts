import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';

/**
 * Bid-rate analytics and the sale summary count the same certificates as sold to a
 * bidder (domain/sold-to-bidder.ts): after a real ingest of a portal file, one
 * county-year's figures agree with its /certificate-sales row.
 */
describe('bid-rate analytics agree with the sale summary', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let key: Record<string, string>;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    app = await buildApp(t.runtime);
    key = await apiKeyHeaders(t.runtime);
    const file = fileURLToPath(new URL('../../../../../../fixtures/demo/broward/2024.csv.gz', import.meta.url));
    const [outcome] = await enqueueFiles(
      t.runtime,
      [{ dataset: 'certificates', file, vendor: 'lienport', county: 'broward', taxYear: 2024 }],
      { wait: true },
    );
    expect(outcome?.status).toBe('succeeded');
  });
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
  });

  it('certificates, struck, face and mean rate are the sale row figures', async () => {
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: key });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const [sale] = await get('/api/v1/certificate-sales/search?county=broward&tax_year=2024');
    const rates = await get('/api/v1/analytics/bid-rates?county=broward&tax_year=2024');
    expect(sale.certificates_sold).toBeGreaterThan(0);
    expect(rates.certificates).toBe(sale.certificates_sold);
    expect(rates.struck_to_county).toBe(sale.struck_to_county);
    expect(rates.face_amount).toBe(sale.face_value_sold);
    // The sale row rounds its average to 2 decimals; the analytics mean has 4.
    expect(Math.round(rates.rate.mean * 100) / 100).toBe(sale.average_bid_rate);
  });
});
