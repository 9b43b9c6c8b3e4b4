// @module-tag postgres
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../../../indexer/load/bulk.ts';
import { certificateDocument } from '../../../../../../indexer/certificates/certificate-document.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { PORTFOLIO_LIMITS } from '../../../../../../services/api/writes/limits.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { positionsOf } from '../../../../../../services/control/portfolios/index.ts';
import { aliasName } from '../../../../../../services/domain/datasets.ts';
import { floridaToday } from '../../../../../../services/domain/florida-today.ts';
import { certificateId } from '../../../../../../services/domain/ids.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';

// A client keeps the certificates it holds in portfolios through the API alone, on the real engine and control plane.

let t: TestRuntime;
let app: FastifyInstance;
let owner: { authorization: string };
/** Lee certificates of tax year 2023, loaded with their holder groups as an ingest writes them. */
const LOADED = Array.from({ length: 6 }, (_, n) =>
  certificateDocument(
    sampleCertificate(
      { county_slug: 'lee', county_name: 'Lee', certificate_number: `2023-00${n}`, holder_name: 'Gulf Coast Lien Fund II, LLC' },
      n,
    ),
    new Map(),
  ),
);
const GROUP = LOADED[0]!.holder_group_id;

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  await migrate(t.runtime.sql);
  const writer = createBulkWriter(t.runtime.opensearch, { index: aliasName(t.config.INDEX_PREFIX, 'certificates'), refresh: true });
  for (const doc of LOADED) await writer.add(doc.id, doc);
  const totals = await writer.flush();
  if (totals.failed > 0) throw new Error(`seed failed: ${JSON.stringify(totals.failures.slice(0, 3))}`);
  app = await buildApp(t.runtime);
  owner = await apiKeyHeaders(t.runtime);
});
afterAll(async () => {
  await app?.close();
  await t?.teardown();
});

type Auth = { authorization: string };
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (auth: Auth, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { ...auth, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const usage = async (auth: Auth) => (await call(auth, 'GET', '/api/v1/account/usage')).json().data.events_count as number;
const create = async (auth: Auth, name = 'a book', extra: Record<string, unknown> = {}) => {
  const res = await call(auth, 'POST', '/api/v1/portfolios', { name, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; name: string; follow_holder_group: string | null };
};
const issues = (res: { json(): { error: { details: { issues: { parameter: string; message: string }[] } } } }) =>
  res.json().error.details.issues;
const lee = (number: string, extra: Record<string, unknown> = {}) => ({
  county: 'lee',
  certificate_number: number,
  tax_year: 2023,
  ...extra,
});

describe('portfolios through the API', () => {
  it('creates, lists, reads, changes and deletes, each for 1 credit; deleting twice is a 404', async () => {
    const auth = await apiKeyHeaders(t.runtime);
    let credits = await usage(auth);
    const made = await call(auth, 'POST', '/api/v1/portfolios', { name: '  Lee 2023  ' });
    expect(made.statusCode, made.body).toBe(201);
    const first = made.json().data;
    expect(first).toMatchObject({ name: 'Lee 2023', follow_holder_group: null });
    expect(first.id).toMatch(/^pf_[A-Za-z0-9_-]{16}$/);
    expect(first.created_at).toBe(first.updated_at);
    const second = await create(auth, 'following', { follow_holder_group: GROUP });
    expect(second.follow_holder_group).toBe(GROUP);

    const list = await call(auth, 'GET', '/api/v1/portfolios');
    expect(list.json().data.map((p: { id: string }) => p.id)).toEqual([first.id, second.id]);
    expect(list.json().pagination).toEqual({ limit: 100, offset: 0, total: 2, has_more: false });
    expect((await call(auth, 'GET', `/api/v1/portfolios/${first.id}`)).json().data).toEqual(first);

    const renamed = await call(auth, 'PATCH', `/api/v1/portfolios/${second.id}`, { name: 'renamed' });
    expect(renamed.json().data).toMatchObject({ name: 'renamed', follow_holder_group: GROUP });
    const cleared = await call(auth, 'PATCH', `/api/v1/portfolios/${second.id}`, { follow_holder_group: null });
    expect(cleared.json().data).toMatchObject({ name: 'renamed', follow_holder_group: null });
    const followed = await call(auth, 'PATCH', `/api/v1/portfolios/${first.id}`, { follow_holder_group: GROUP });
    expect(followed.json().data.follow_holder_group).toBe(GROUP);

    await call(auth, 'POST', `/api/v1/portfolios/${first.id}/positions`, { positions: [lee('2023-000'), lee('2023-001')] });
    const gone = await call(auth, 'DELETE', `/api/v1/portfolios/${first.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data).toEqual({ id: first.id, deleted: true });
    expect(await positionsOf(t.runtime.sql, first.id)).toEqual([]);
    credits += 9;
    expect(await usage(auth)).toBe(credits);
    expect((await call(auth, 'DELETE', `/api/v1/portfolios/${first.id}`)).statusCode).toBe(404);
    expect((await call(auth, 'GET', `/api/v1/portfolios/${first.id}`)).statusCode).toBe(404);
    // A path takes exactly its registered methods.
    const put = await app.inject({ method: 'PUT', url: `/api/v1/portfolios/${second.id}/positions`, headers: auth, payload: {} });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('POST, GET, HEAD');
  });

  it('names each bad field of a portfolio, and a holder group no certificate names', async () => {
    for (const [body, parameter] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(121) }, 'name'],
      [{ name: 'a\u0000b' }, 'name'],
      [{ name: 'x', follow_holder_group: 'acme' }, 'follow_holder_group'],
      [{ name: 'x', follow_holder_group: 'grp_00000000000000000000' }, 'follow_holder_group'],
      [{ name: 'x', colour: 1 }, 'colour'],
    ] as const) {
      const res = await call(owner, 'POST', '/api/v1/portfolios', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(issues(res).map((i) => i.parameter)).toContain(parameter);
    }
    const { id } = await create(owner);
    const unknown = await call(owner, 'PATCH', `/api/v1/portfolios/${id}`, { follow_holder_group: 'grp_00000000000000000000' });
    expect(issues(unknown)).toEqual([{ parameter: 'follow_holder_group', message: expect.stringContaining('no holder group') }]);
    expect((await call(owner, 'PATCH', `/api/v1/portfolios/${id}`, {})).statusCode).toBe(400);
    expect((await call(owner, 'GET', `/api/v1/portfolios/${id}`)).json().data.follow_holder_group).toBeNull();
  });

  it('reports each line in order: created, unresolved, and why each other line was not added', async () => {
    const { id } = await create(owner);
    const held = LOADED[0]!;
    const first = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, { positions: [lee('2023-000')] });
    expect(first.statusCode, first.body).toBe(200);
    const heldId = first.json().data.lines[0].position.id;

    const tomorrow = new Date(Date.now() + 36 * 3600 * 1000).toISOString().slice(0, 10);
    const lines = [
      /* 1 */ { certificate_id: LOADED[1]!.id, acquired_on: '2024-06-01', acquired_amount: 1850.4, note: 'at the sale' },
      /* 2 */ lee('2023001'),
      /* 3 */ lee('2023-00-2'),
      /* 4 */ lee('2023-999', { acquired_amount: 12 }),
      /* 5 */ { certificate_id: certificateId('lee', 2023, '2023-998') },
      /* 6 */ { ...lee('1'), county: 'atlantis' },
      /* 7 */ lee('2023-003', { acquired_on: tomorrow > floridaToday(new Date()) ? tomorrow : '2999-01-01' }),
      /* 8 */ lee('2023-003', { acquired_amount: 1.005 }),
      /* 9 */ lee('2023-000'),
      /* 10 */ { certificate_id: 'cert_nothex' },
      /* 11 */ 'lee 2023-004',
      /* 12 */ lee('2023-004', { colour: 'red' }),
    ];
    const res = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, { positions: lines });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().data;
    expect(report).toMatchObject({ portfolio_id: id, created: 3, unresolved: 1, rejected: 9 });
    expect(
      report.lines.map((l: { line: number; status: string; error?: { code: string; field: string } }) => [
        l.line,
        l.status,
        l.error?.code,
        l.error?.field,
      ]),
    ).toEqual([
      [1, 'created', undefined, undefined],
      [2, 'rejected', 'duplicate', 'line'],
      [3, 'created', undefined, undefined],
      [4, 'created', undefined, undefined],
      [5, 'rejected', 'unknown_certificate', 'certificate_id'],
      [6, 'rejected', 'unknown_county', 'county'],
      [7, 'rejected', 'invalid', 'acquired_on'],
      [8, 'rejected', 'invalid', 'acquired_amount'],
      [9, 'rejected', 'duplicate', 'line'],
      [10, 'rejected', 'invalid', 'certificate_id'],
      [11, 'rejected', 'invalid', 'line'],
      [12, 'rejected', 'invalid', 'colour'],
    ]);
    expect(report.lines[1].error.message).toBe('line 1 of this request already adds this certificate');
    expect(report.lines[8].error.message).toBe(`the portfolio already holds this certificate as position ${heldId}`);
    // By id, the loaded certificate gives its county, number and year.
    expect(report.lines[0].position).toMatchObject({
      certificate_id: LOADED[1]!.id,
      county: 'lee',
      certificate_number: '2023-001',
      tax_year: 2023,
      acquired_on: '2024-06-01',
      acquired_amount: 1850.4,
      note: 'at the sale',
      resolved: true,
    });
    // By key, the loaded certificate's spelling of the number is kept.
    expect(report.lines[2].position).toMatchObject({ certificate_id: LOADED[2]!.id, certificate_number: '2023-002', resolved: true });
    // Not loaded yet: kept under the id an ingest will give it.
    expect(report.lines[3].position).toMatchObject({
      certificate_id: certificateId('lee', 2023, '2023-999'),
      certificate_number: '2023-999',
      acquired_amount: 12,
      acquired_on: null,
      resolved: false,
    });
    const stored = await positionsOf(t.runtime.sql, id);
    expect(stored.map((p) => p.certificate_id).sort()).toEqual(
      [held.id, LOADED[1]!.id, LOADED[2]!.id, certificateId('lee', 2023, '2023-999')].sort(),
    );
    expect(stored.find((p) => p.certificate_id === LOADED[1]!.id)!.acquired_amount_cents).toBe(185040);

    // Every line bad: nothing is added, and the report still says why.
    const none = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, { positions: [lee('2023-000')] });
    expect(none.statusCode).toBe(200);
    expect(none.json().data).toMatchObject({ created: 0, rejected: 1 });
  });

  it('refuses the request as a whole only for its shape: no list, an empty one, or more than 10,000 lines', async () => {
    const { id } = await create(owner);
    for (const body of [
      {},
      { positions: [] },
      { positions: lee('1') },
      { positions: Array.from({ length: 10_001 }, (_, n) => lee(String(n))) },
    ]) {
      const res = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, body);
      expect(res.statusCode).toBe(400);
      expect(issues(res).map((i) => i.parameter)).toEqual(['positions']);
    }
    const tooMany = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, {
      positions: Array.from({ length: 10_001 }, (_, n) => lee(String(n))),
    });
    expect(issues(tooMany)[0]!.message).toMatch(/at most 10,000 positions/);
    expect(await positionsOf(t.runtime.sql, id)).toEqual([]);
  });

  it('adds 10,000 lines in one request and refuses a body over 4 MiB with 413', async () => {
    const { id } = await create(owner);
    const positions = Array.from({ length: 10_000 }, (_, n) =>
      lee(`2024-${n}`, { acquired_on: '2024-06-01', acquired_amount: 100 + n / 100, note: `bought in lot ${n % 40}` }),
    );
    const started = performance.now();
    const res = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, { positions });
    const ms = performance.now() - started;
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json().data).toMatchObject({ created: 10_000, unresolved: 10_000, rejected: 0 });
    expect(await positionsOf(t.runtime.sql, id)).toHaveLength(10_000);
    // Generous for a shared 2-core machine; measured well under a second on SQLite.
    expect(ms).toBeLessThan(10_000);

    const big = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, {
      positions: Array.from({ length: 9_000 }, (_, n) => lee(String(n), { note: 'x'.repeat(480) })),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatchObject({
      code: 'payload_too_large',
      message: 'request body too large: a list of positions takes at most 4 MiB of JSON',
    });
    // Every other write keeps the 64 KiB limit.
    const small = await call(owner, 'POST', '/api/v1/portfolios', { name: 'x'.repeat(70 * 1024) });
    expect(small.statusCode).toBe(413);
    expect(small.json().error.message).toBe('request body too large: a write takes at most 64 KiB of JSON');
  });

  it("answers 404 for another client's portfolio on every method, and changes nothing", async () => {
    const other = await apiKeyHeaders(t.runtime);
    const mine = await create(owner, 'mine');
    const added = await call(owner, 'POST', `/api/v1/portfolios/${mine.id}/positions`, { positions: [lee('2023-005')] });
    const positionId = added.json().data.lines[0].position.id;
    for (const res of await Promise.all([
      call(other, 'GET', `/api/v1/portfolios/${mine.id}`),
      call(other, 'PATCH', `/api/v1/portfolios/${mine.id}`, { name: 'theirs' }),
      call(other, 'DELETE', `/api/v1/portfolios/${mine.id}`),
      call(other, 'POST', `/api/v1/portfolios/${mine.id}/positions`, { positions: [lee('2023-004')] }),
      call(other, 'DELETE', `/api/v1/portfolios/${mine.id}/positions/${positionId}`),
    ])) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await call(other, 'GET', '/api/v1/portfolios')).json().data).toEqual([]);
    expect((await call(owner, 'GET', `/api/v1/portfolios/${mine.id}`)).json().data).toEqual(mine);
    expect(await positionsOf(t.runtime.sql, mine.id)).toHaveLength(1);

    // A position of another of the owner's portfolios is not this one's.
    const another = await create(owner, 'another');
    expect((await call(owner, 'DELETE', `/api/v1/portfolios/${another.id}/positions/${positionId}`)).statusCode).toBe(404);
    const removed = await call(owner, 'DELETE', `/api/v1/portfolios/${mine.id}/positions/${positionId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data).toEqual({ id: positionId, deleted: true });
    expect((await call(owner, 'DELETE', `/api/v1/portfolios/${mine.id}/positions/${positionId}`)).statusCode).toBe(404);
    expect(await positionsOf(t.runtime.sql, mine.id)).toEqual([]);
  });

  it('replays a retried POST of positions with its Idempotency-Key and adds nothing more; another body is 409', async () => {
    const { id } = await create(owner);
    const headers = { 'idempotency-key': 'b3d9-portfolio-positions' };
    const body = { positions: [lee('2023-000'), lee('2023-777')] };
    const first = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, body, headers);
    const again = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, body, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await positionsOf(t.runtime.sql, id)).toHaveLength(2);
    const other = await call(owner, 'POST', `/api/v1/portfolios/${id}/positions`, { positions: [lee('2023-001')] }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_conflict');

    const create1 = await call(owner, 'POST', '/api/v1/portfolios', { name: 'once' }, { 'idempotency-key': 'c4e0-portfolio' });
    const create2 = await call(owner, 'POST', '/api/v1/portfolios', { name: 'once' }, { 'idempotency-key': 'c4e0-portfolio' });
    expect(create2.headers['idempotent-replayed']).toBe('true');
    expect(create2.json()).toEqual(create1.json());
  });

  it('refuses a portfolio past the plan limit, and positions past the per-portfolio limit, with 403 limit_reached', async () => {
    const auth = await apiKeyHeaders(t.runtime, 'developer');
    const limit = PORTFOLIO_LIMITS.developer;
    const ids: string[] = [];
    for (let i = 0; i < limit; i++) ids.push((await create(auth, `p${i}`)).id);
    const refused = await call(auth, 'POST', '/api/v1/portfolios', { name: 'one more' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'limit_reached', details: { resource: 'portfolios', limit, plan: 'developer' } });
    expect(refused.json().error.message).toMatch(/portfolios.*delete one first/);
    await call(auth, 'DELETE', `/api/v1/portfolios/${ids[0]}`);
    expect((await call(auth, 'POST', '/api/v1/portfolios', { name: 'one more' })).statusCode).toBe(201);

    // developer: 10,000 positions a portfolio.
    const full = ids[1]!;
    const filled = await call(auth, 'POST', `/api/v1/portfolios/${full}/positions`, {
      positions: Array.from({ length: 10_000 }, (_, n) => lee(`F-${n}`)),
    });
    expect(filled.json().data.created).toBe(10_000);
    const past = await call(auth, 'POST', `/api/v1/portfolios/${full}/positions`, { positions: [lee('F-0'), lee('F-new')] });
    expect(past.statusCode).toBe(403);
    expect(past.json().error).toMatchObject({
      code: 'limit_reached',
      details: { resource: 'portfolio_positions', limit: 10_000, plan: 'developer', portfolio_id: full, held: 10_000, adding: 1 },
    });
    expect(await positionsOf(t.runtime.sql, full)).toHaveLength(10_000);
  });
});
