import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { RATE_BUCKETS } from '../../../../../../services/api/routes/analytics/bid-rates/build-query.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';
import { loadOnThreeShards } from '../certificates/seed.ts';

/**
 * More distinct rates than the rate buckets hold (never on quarter-point bids, but the
 * record schema allows any rate): the engine's answer is then not exact, and the route
 * says so with a 500 instead of answering percentiles computed from part of the rates.
 */
describe('GET /analytics/bid-rates when the rates outgrow their buckets', () => {
  let t: TestRuntime;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    // RATE_BUCKETS + 1 distinct rates, 0.005 apart, all in one county.
    const records = Array.from({ length: RATE_BUCKETS + 1 }, (_, n) =>
      sampleCertificate({ certificate_number: `2023-${String(n).padStart(6, '0')}`, interest_rate: (n * 5) / 1000 }, n),
    );
    await loadOnThreeShards(t.runtime.opensearch, t.config.INDEX_PREFIX, records);
    app = await buildApp(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
  });

  it('answers 500 internal_error, never an estimate', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/analytics/bid-rates', headers: await apiKeyHeaders(t.runtime) });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    // The same data, scoped to a county without those certificates, is still answered.
    const other = await app.inject({
      method: 'GET',
      url: '/api/v1/analytics/bid-rates?county=duval',
      headers: await apiKeyHeaders(t.runtime),
    });
    expect(other.statusCode).toBe(200);
  });
});
