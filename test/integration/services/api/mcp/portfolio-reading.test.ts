import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../../services/control/billing/api-keys.ts';
import { createClient } from '../../../../../services/control/billing/clients.ts';
import { addPositions, createPortfolio } from '../../../../../services/control/portfolios/index.ts';
import { bearer, deleteRateKeys } from '../../../../helpers/access.ts';
import { connectMcp, errorBody, texts } from '../../../../helpers/mcp.ts';
import { type CertificatesApi, openCertificatesApi } from '../routes/certificates/seed.ts';

/**
 * The portfolio tools against their REST routes, through the SDK's client on a listening server:
 * the same answers for the same arguments, one credit a call, another client's portfolio unknown.
 */

type Auth = { authorization: string };
let api: CertificatesApi;
let base: string;
let owner: Auth;
let client: Client;
let portfolioId: string;

beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  const { sql, config } = api.t.runtime;
  const me = await createClient(sql, { name: 'mcp portfolio owner', plan: 'enterprise' });
  owner = bearer((await createKey(sql, { clientId: me.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET })).raw);
  const portfolio = await createPortfolio(sql, { clientId: me.id, name: 'Mixed', followHolderGroup: null, limit: 10 });
  portfolioId = portfolio.id;
  const lines = api.records
    .filter((r, i) => i % 7 === 0 && r.sale_date <= '2025-06-15')
    .map((r) => ({
      certificate_id: r.id,
      county_slug: r.county_slug,
      certificate_number: r.certificate_number,
      tax_year: r.tax_year,
      acquired_on: null,
      acquired_amount_cents: null,
      note: null,
    }));
  await addPositions(sql, portfolioId, lines, 10_000);
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  client = await connectMcp(base, owner);
});
afterAll(async () => {
  await client?.close();
  await deleteRateKeys(api.t.runtime, api.t.config.INDEX_PREFIX);
  await api?.close();
});

const rest = async (url: string) => (await api.app.inject({ method: 'GET', url, headers: owner })).json() as Record<string, unknown>;
const usage = async () => ((await rest('/api/v1/account/usage')).data as { events_count: number }).events_count;

async function call(name: string, args: Record<string, unknown>) {
  const before = await usage();
  const result = await client.callTool({ name, arguments: args });
  return {
    result,
    body: result.structuredContent as Record<string, unknown> & { meta: { request_id: string } },
    charged: (await usage()) - before,
  };
}
const sameBody = (tool: { meta: { request_id: string } }, restBody: Record<string, unknown>) => ({
  ...restBody,
  meta: { ...(restBody.meta as object), request_id: tool.meta.request_id },
});

describe('the portfolio reading tools', () => {
  it('answer what the REST routes answer, one credit each', async () => {
    const listed = await call('list_portfolios', {});
    expect(listed.charged).toBe(1);
    expect(listed.body).toEqual(sameBody(listed.body, await rest('/api/v1/portfolios')));

    const positions = await call('list_portfolio_positions', { id: portfolioId, as_of: '2025-06-15', sort: 'payoff_desc', limit: '5' });
    expect(positions.result.isError, texts(positions.result)[0]).toBeFalsy();
    expect(positions.charged).toBe(1);
    const viaRest = await rest(`/api/v1/portfolios/${portfolioId}/positions?as_of=2025-06-15&sort=payoff_desc&limit=5`);
    expect(positions.body).toEqual(sameBody(positions.body, viaRest));
    expect((positions.body.data as unknown[]).length).toBe(5);

    const summary = await call('get_portfolio_summary', { id: portfolioId, as_of: '2025-06-15' });
    expect(summary.charged).toBe(1);
    expect(summary.body).toEqual(sameBody(summary.body, await rest(`/api/v1/portfolios/${portfolioId}/summary?as_of=2025-06-15`)));
    expect(texts(summary.result)[0]).toMatch(new RegExp(`^${portfolioId} on 2025-06-15: \\d+ positions`));
  });

  it("is not_found for another client's portfolio", async () => {
    const { sql, config } = api.t.runtime;
    const other = await createClient(sql, { name: 'someone else', plan: 'enterprise' });
    const auth = bearer(
      (await createKey(sql, { clientId: other.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET })).raw,
    );
    const theirs = await connectMcp(base, auth);
    try {
      const result = await theirs.callTool({ name: 'get_portfolio_summary', arguments: { id: portfolioId } });
      expect(result.isError).toBe(true);
      expect(errorBody(result).error.code).toBe('not_found');
    } finally {
      await theirs.close();
    }
  });
});
