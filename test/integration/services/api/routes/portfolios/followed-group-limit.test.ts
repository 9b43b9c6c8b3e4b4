import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../../../indexer/load/bulk.ts';
import { certificateDocument } from '../../../../../../indexer/certificates/certificate-document.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { aliasName } from '../../../../../../services/domain/datasets.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';

// A followed holder group is bounded: a write never follows a group larger than the plan's
// positions or what one read takes (PORTFOLIO_GROUP_MAX, 3 here), and a group that grew past it
// after it was followed refuses the portfolio's reads instead of leaving certificates out.

let t: TestRuntime;
let app: FastifyInstance;
type Auth = { authorization: string };

/** `n` Lee certificates held by one holder, as an ingest writes them (each with its holder_group_id). */
function holderCertificates(holder: string, numbers: readonly string[], seed: number) {
  return numbers.map((number, i) =>
    certificateDocument(
      sampleCertificate({ county_slug: 'lee', county_name: 'Lee', certificate_number: number, holder_name: holder }, seed + i),
      new Map(),
    ),
  );
}

async function load(docs: ReturnType<typeof holderCertificates>): Promise<void> {
  const writer = createBulkWriter(t.runtime.opensearch, { index: aliasName(t.config.INDEX_PREFIX, 'certificates'), refresh: true });
  for (const doc of docs) await writer.add(doc.id, doc);
  const totals = await writer.flush();
  if (totals.failed > 0) throw new Error(`seed failed: ${JSON.stringify(totals.failures.slice(0, 3))}`);
}

const SMALL = holderCertificates('Pelican Bay Liens LLC', ['2023-100', '2023-101', '2023-102'], 10);
const LARGE = holderCertificates('Osprey Tax Fund 7 LLC', ['2023-200', '2023-201', '2023-202', '2023-203'], 20);
const GROWN = holderCertificates('Heron Certificate Partners LLC', ['2023-300', '2023-301', '2023-302'], 30);
const GROWN_LATER = holderCertificates('Heron Certificate Partners LLC', ['2023-303'], 33);

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url, { PORTFOLIO_GROUP_MAX: '3' });
  await migrate(t.runtime.sql);
  await load([...SMALL, ...LARGE, ...GROWN]);
  app = await buildApp(t.runtime);
});
afterAll(async () => {
  await app?.close();
  await t?.teardown();
});

const call = (auth: Auth, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

describe('a followed holder group is bounded', () => {
  it('refuses to follow a group larger than one portfolio may follow, on create and on change', async () => {
    const auth = await apiKeyHeaders(t.runtime, 'developer');
    const small = await call(auth, 'POST', '/api/v1/portfolios', { name: 'pelican', follow_holder_group: SMALL[0]!.holder_group_id });
    expect(small.statusCode, small.body).toBe(201);
    const refused = await call(auth, 'POST', '/api/v1/portfolios', { name: 'osprey', follow_holder_group: LARGE[0]!.holder_group_id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'limit_reached',
      details: {
        resource: 'portfolio_positions',
        parameter: 'follow_holder_group',
        limit: 3,
        plan: 'developer',
        holder_group: LARGE[0]!.holder_group_id,
        certificates: 4,
      },
    });
    expect(refused.json().error.message).toContain('follow a smaller group');
    expect((await call(auth, 'GET', '/api/v1/portfolios')).json().data.map((p: { name: string }) => p.name)).toEqual(['pelican']);

    const id = small.json().data.id as string;
    const changed = await call(auth, 'PATCH', `/api/v1/portfolios/${id}`, { follow_holder_group: LARGE[0]!.holder_group_id });
    expect(changed.statusCode).toBe(403);
    expect(changed.json().error.code).toBe('limit_reached');
    expect((await call(auth, 'GET', `/api/v1/portfolios/${id}`)).json().data.follow_holder_group).toBe(SMALL[0]!.holder_group_id);

    const positions = await call(auth, 'GET', `/api/v1/portfolios/${id}/positions?limit=10`);
    expect(positions.statusCode, positions.body).toBe(200);
    expect(
      positions
        .json()
        .data.map((p: { certificate_id: string }) => p.certificate_id)
        .sort(),
    ).toEqual(SMALL.map((d) => d.id).sort());
  });

  it('refuses every read of a portfolio whose group grew past the bound, rather than leaving certificates out', async () => {
    const auth = await apiKeyHeaders(t.runtime, 'enterprise');
    const made = await call(auth, 'POST', '/api/v1/portfolios', { name: 'heron', follow_holder_group: GROWN[0]!.holder_group_id });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as string;
    const address = await call(auth, 'POST', `/api/v1/portfolios/${id}/calendar-address`);
    expect(address.statusCode, address.body).toBe(201);
    // The next sale's file: the group now holds four, one more than a read takes.
    await load(GROWN_LATER);

    const calendarPath = new URL(address.json().data.url as string).pathname;
    for (const [url, headers] of [
      [`/api/v1/portfolios/${id}/positions`, auth],
      [`/api/v1/portfolios/${id}/summary`, auth],
      [`/api/v1/portfolios/${id}/calendar.ics`, auth],
      [calendarPath, {}],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'limit_reached',
        details: {
          resource: 'portfolio_positions',
          parameter: 'follow_holder_group',
          limit: 3,
          portfolio_id: id,
          holder_group: GROWN[0]!.holder_group_id,
        },
      });
    }

    // Following no group makes the portfolio readable again.
    expect((await call(auth, 'PATCH', `/api/v1/portfolios/${id}`, { follow_holder_group: null })).statusCode).toBe(200);
    const summary = await call(auth, 'GET', `/api/v1/portfolios/${id}/summary`);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().data.positions).toBe(0);
  });
});
