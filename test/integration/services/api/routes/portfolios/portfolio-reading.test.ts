import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../../../../services/control/billing/api-keys.ts';
import { createClient } from '../../../../../../services/control/billing/clients.ts';
import { addPositions, createPortfolio } from '../../../../../../services/control/portfolios/index.ts';
import { aliasName } from '../../../../../../services/domain/datasets.ts';
import { loadHolderAliases, holderGroup } from '../../../../../../services/domain/holder-groups.ts';
import { certificateId } from '../../../../../../services/domain/ids.ts';
import type { CertificateRecord } from '../../../../../../services/domain/records.ts';
import { followedPositionId } from '../../../../../../services/domain/position-ids.ts';
import { bearer } from '../../../../../helpers/access.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';
import { type CertificatesApi, openCertificatesApi } from '../certificates/seed.ts';

// A client's portfolio read as of a day, against the real engine and control plane: each position
// answers what the certificate routes answer, and the summary is the sum of the positions.

type Auth = { authorization: string };
interface Position {
  id: string;
  origin: string;
  certificate_id: string;
  status: string;
  certificate: Record<string, unknown> | null;
  quote: { redeemable: boolean; holder_amount: number | null; interest_due: number | null } | null;
  next_deadline: { kind: string; date: string; days_left: number } | null;
  acquired_amount: number | null;
  redeemed_on: string | null;
  interest_earned: number | null;
  annualized_yield: number | null;
  note: string | null;
}

const AS_OF = '2025-06-15';
let api: CertificatesApi;
let owner: Auth;
let other: Auth;
let portfolioId: string;
let followId: string;
let held: CertificateRecord[];
const unresolvedId = certificateId('lee', 2025, 'NOT-LOADED-1');
/** Certificates of one holder group, indexed with their group fields as the ingest writes them. */
let grouped: (CertificateRecord & { holder_group_id: string })[];

async function clientWithKey(name: string): Promise<{ id: string; auth: Auth }> {
  const { sql, config } = api.t.runtime;
  const client = await createClient(sql, { name, plan: 'enterprise' });
  const { raw } = await createKey(sql, { clientId: client.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET });
  return { id: client.id, auth: bearer(raw) };
}

const get = (auth: Auth, url: string) => api.app.inject({ method: 'GET', url, headers: auth });
const usage = async (auth: Auth) => (await get(auth, '/api/v1/account/usage')).json().data.events_count as number;

async function allPositions(auth: Auth, id: string, query = ''): Promise<Position[]> {
  const out: Position[] = [];
  for (let offset = 0; ; offset += 50) {
    const res = await get(auth, `/api/v1/portfolios/${id}/positions?as_of=${AS_OF}&limit=50&offset=${offset}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    out.push(...res.json().data);
    if (!res.json().pagination.has_more) return out;
  }
}

beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  const me = await clientWithKey('portfolio owner');
  owner = me.auth;
  other = (await clientWithKey('someone else')).auth;
  const { sql } = api.t.runtime;
  // Every fifth seeded certificate sold by AS_OF: every county and status.
  held = api.records.filter((r, i) => i % 5 === 0 && r.sale_date <= AS_OF).slice(0, 40);
  const portfolio = await createPortfolio(sql, { clientId: me.id, name: 'Broward and more', followHolderGroup: null, limit: 10 });
  portfolioId = portfolio.id;
  const lines = held.map((r, i) => ({
    certificate_id: r.id,
    county_slug: r.county_slug,
    certificate_number: r.certificate_number,
    tax_year: r.tax_year,
    acquired_on: i % 2 === 0 ? `${r.tax_year + 1}-06-0${(i % 9) + 1}` : null,
    acquired_amount_cents: i % 3 === 0 ? Math.round(r.face_amount * 100) + 1500 : null,
    note: i === 0 ? 'first one' : null,
  }));
  lines.push({
    certificate_id: unresolvedId,
    county_slug: 'lee',
    certificate_number: 'NOT-LOADED-1',
    tax_year: 2025,
    acquired_on: null,
    acquired_amount_cents: 99_900,
    note: 'bought before the county published',
  });
  await addPositions(sql, portfolioId, lines, 10_000);

  // A holder group of three certificates, one of which the follow portfolio also holds itself.
  const aliases = loadHolderAliases();
  grouped = [0, 1, 2].map((n) => {
    const r = sampleCertificate(
      { county_slug: 'duval', county_name: 'Duval', holder_name: 'Zephyr Lien Partners 4 LLC', certificate_number: `Z-${n}` },
      5000 + n,
    );
    return { ...r, ...holderGroup(r, aliases) };
  });
  const index = aliasName(api.t.config.INDEX_PREFIX, 'certificates');
  for (const doc of grouped) await api.t.runtime.opensearch.index({ index, id: doc.id, body: doc, refresh: true });
  const follow = await createPortfolio(sql, {
    clientId: me.id,
    name: 'Zephyr',
    followHolderGroup: grouped[0]!.holder_group_id,
    limit: 10,
  });
  followId = follow.id;
  const g0 = grouped[0]!;
  await addPositions(
    sql,
    followId,
    [
      {
        certificate_id: g0.id,
        county_slug: g0.county_slug,
        certificate_number: g0.certificate_number,
        tax_year: g0.tax_year,
        acquired_on: '2024-06-02',
        acquired_amount_cents: null,
        note: 'mine',
      },
    ],
    10_000,
  );
});
afterAll(async () => api?.close());

describe('portfolio positions', () => {
  it('answer each certificate and quote exactly as /certificates/{id} and its /redemption do', async () => {
    const positions = await allPositions(owner, portfolioId);
    expect(positions).toHaveLength(held.length + 1);
    for (const p of positions.filter((x) => x.certificate !== null)) {
      const cert = await get(owner, `/api/v1/certificates/${p.certificate_id}`);
      const quote = await get(owner, `/api/v1/certificates/${p.certificate_id}/redemption?date=${AS_OF}`);
      const timeline = await get(owner, `/api/v1/certificates/${p.certificate_id}/timeline?date=${AS_OF}`);
      expect(p.certificate).toEqual(cert.json().data);
      expect(p.quote).toEqual(quote.json().data);
      const next = timeline.json().data.next_deadline;
      expect(p.next_deadline).toEqual(
        next === null
          ? null
          : { kind: next.name === 'expires' ? 'expires' : 'deed_application_opens', date: next.date, days_left: next.days_left },
      );
    }
    const redeemed = positions.filter((p) => p.redeemed_on !== null);
    expect(redeemed.length).toBeGreaterThan(0);
    for (const p of redeemed)
      expect(Math.round(p.interest_earned! * 100)).toBe(
        Math.round(((p.certificate!.redemption_amount as number) - (p.certificate!.face_amount as number)) * 100),
      );
  });

  it('shows an unresolved position with its own facts and certificate null', async () => {
    const positions = await allPositions(owner, portfolioId, '&status=unresolved');
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({
      certificate_id: unresolvedId,
      status: 'unresolved',
      certificate: null,
      quote: null,
      next_deadline: null,
      acquired_amount: 999,
      note: 'bought before the county published',
    });
  });

  it('filters, orders and pages stably', async () => {
    const byPayoff = await allPositions(owner, portfolioId, '&sort=payoff_desc');
    const payoffs = byPayoff.map((p) => (p.quote?.redeemable ? p.quote.holder_amount : null));
    const known = payoffs.filter((x): x is number => x !== null);
    expect(known).toEqual([...known].sort((a, b) => b - a));
    expect(payoffs.slice(known.length).every((x) => x === null)).toBe(true);
    const byDeadline = await allPositions(owner, portfolioId);
    const dates = byDeadline.map((p) => p.next_deadline?.date).filter(Boolean);
    expect(dates).toEqual([...dates].sort());
    const broward = await allPositions(owner, portfolioId, '&county=broward&deadline_before=2027-04-02');
    expect(broward.length).toBeGreaterThan(0);
    for (const p of broward) {
      expect(p.certificate?.county_slug).toBe('broward');
      expect(p.next_deadline!.date < '2027-04-02').toBe(true);
    }
  });

  it('answers CSV, one flat row per position', async () => {
    const res = await get(owner, `/api/v1/portfolios/${portfolioId}/positions?as_of=${AS_OF}&format=csv&limit=500`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.trim().split('\n');
    expect(lines[0]!.startsWith('id,origin,certificate_id,county_slug,certificate_number,tax_year,status,face_amount')).toBe(true);
    expect(lines).toHaveLength(held.length + 2);
    expect(res.body).toContain(unresolvedId);
  });

  it('includes every certificate of a followed holder group, with ids derived from the certificate', async () => {
    const positions = await allPositions(owner, followId);
    expect(positions.map((p) => p.certificate_id).sort()).toEqual(grouped.map((g) => g.id).sort());
    const own = positions.find((p) => p.certificate_id === grouped[0]!.id)!;
    expect(own).toMatchObject({ origin: 'added', note: 'mine' });
    for (const g of grouped.slice(1)) {
      const p = positions.find((x) => x.certificate_id === g.id)!;
      // Its keys as the certificate spells them (read from doc values: the number's own spelling, not its normalized key).
      expect(p).toMatchObject({
        origin: 'holder_group',
        id: followedPositionId(followId, g.id),
        note: null,
        county_slug: g.county_slug,
        certificate_number: g.certificate_number,
        tax_year: g.tax_year,
      });
    }
  });
});

describe('portfolio summary', () => {
  it('equals the sum of its positions, to the cent', async () => {
    const positions = await allPositions(owner, portfolioId);
    const res = await get(owner, `/api/v1/portfolios/${portfolioId}/summary?as_of=${AS_OF}`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    const cents = (xs: (number | null | undefined)[]) => xs.reduce<number>((sum, x) => sum + Math.round((x ?? 0) * 100), 0);
    const out = positions.filter((p) => p.quote?.redeemable && p.redeemed_on === null);
    const red = positions.filter((p) => p.redeemed_on !== null);
    expect(s.positions).toBe(positions.length);
    expect(s.unresolved).toBe(1);
    expect(s.outstanding.positions).toBe(out.length);
    expect(Math.round(s.outstanding.payoff_as_of * 100)).toBe(cents(out.map((p) => p.quote!.holder_amount)));
    expect(Math.round(s.outstanding.interest_accrued * 100)).toBe(cents(out.map((p) => p.quote!.interest_due)));
    expect(Math.round(s.outstanding.face_amount * 100)).toBe(cents(out.map((p) => p.certificate!.face_amount as number)));
    expect(s.redeemed.positions).toBe(red.length);
    expect(Math.round(s.redeemed.interest_earned * 100)).toBe(cents(red.map((p) => p.interest_earned)));
    for (const status of new Set(positions.map((p) => p.status)))
      expect(s.by_status[status]).toBe(positions.filter((p) => p.status === status).length);
    expect(s.deadlines.within_90_days.deed_application_opens + s.deadlines.within_90_days.expires).toBe(
      positions.filter((p) => p.next_deadline !== null && p.next_deadline.days_left <= 90).length,
    );
  });
});

describe('portfolio reads: access and parameters', () => {
  it("is a 404 for another client's portfolio and an unknown id", async () => {
    for (const url of [`/api/v1/portfolios/${portfolioId}/positions`, `/api/v1/portfolios/${portfolioId}/summary`]) {
      const res = await get(other, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await get(owner, '/api/v1/portfolios/pf_nothing/summary')).statusCode).toBe(404);
  });

  it('costs 1 credit a request', async () => {
    const before = await usage(owner);
    await get(owner, `/api/v1/portfolios/${portfolioId}/positions`);
    await get(owner, `/api/v1/portfolios/${portfolioId}/summary`);
    expect(await usage(owner)).toBe(before + 2);
  });

  it('names each bad parameter in a 400', async () => {
    const cases: [string, string][] = [
      ['positions?sort=cheap', 'sort'],
      ['positions?as_of=2025-02-30', 'as_of'],
      ['positions?status=gone', 'status'],
      ['positions?county=atlantis', 'county'],
      ['positions?limit=0', 'limit'],
      ['positions?deadline_before=soon', 'deadline_before'],
      ['positions?colour=red', 'colour'],
      ['summary?as_of=today', 'as_of'],
    ];
    for (const [path, parameter] of cases) {
      const res = await get(owner, `/api/v1/portfolios/${portfolioId}/${path}`);
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error.details.issues.map((i: { parameter: string }) => i.parameter)).toContain(parameter);
    }
  });
});
