import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadlineUid } from '../../../../../../services/api/routes/portfolios/calendar-ics.ts';
import { createKey } from '../../../../../../services/control/billing/api-keys.ts';
import { createClient } from '../../../../../../services/control/billing/clients.ts';
import { addPositions, createPortfolio, positionsOf } from '../../../../../../services/control/portfolios/index.ts';
import { floridaToday } from '../../../../../../services/domain/florida-today.ts';
import { bearer } from '../../../../../helpers/access.ts';
import { type CertificatesApi, openCertificatesApi } from '../certificates/seed.ts';

// A portfolio's calendar as a calendar app reads it: one event per deadline still ahead, the same
// dates GET /certificates/{id}/timeline answers, behind the API key and at a secret address that
// answers without one until it is revoked; another client's portfolio is a 404 either way.

type Auth = { authorization: string };
let api: CertificatesApi;
let owner: Auth;
let other: Auth;
let portfolioId: string;

async function clientWithKey(name: string): Promise<{ id: string; auth: Auth }> {
  const { sql, config } = api.t.runtime;
  const client = await createClient(sql, { name, plan: 'enterprise' });
  const { raw } = await createKey(sql, { clientId: client.id, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET });
  return { id: client.id, auth: bearer(raw) };
}

const call = (auth: Auth | undefined, method: 'GET' | 'POST' | 'DELETE', url: string) =>
  api.app.inject({ method, url, headers: auth ?? {} });

/** Event UID -> its day, as a standard parser reads the calendar. */
function eventsOf(text: string): Map<string, string> {
  const root = new ICAL.Component(ICAL.parse(text));
  return new Map(
    root.getAllSubcomponents('vevent').map((c) => {
      const e = new ICAL.Event(c);
      expect(c.getAllSubcomponents('valarm')).toHaveLength(2);
      return [e.uid, e.startDate.toString()];
    }),
  );
}

beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  const me = await clientWithKey('calendar owner');
  owner = me.auth;
  other = (await clientWithKey('someone else')).auth;
  const { sql } = api.t.runtime;
  const portfolio = await createPortfolio(sql, { clientId: me.id, name: 'Fund I; Broward, Duval', followHolderGroup: null, limit: 10 });
  portfolioId = portfolio.id;
  await addPositions(
    sql,
    portfolio.id,
    api.records.slice(0, 60).map((r) => ({
      certificate_id: r.id,
      county_slug: r.county_slug,
      certificate_number: r.certificate_number,
      tax_year: r.tax_year,
      acquired_on: null,
      acquired_amount_cents: null,
      note: null,
    })),
    100,
  );
});
afterAll(async () => api?.close());

describe('a portfolio calendar', () => {
  it('lists every deadline still ahead of its outstanding certificates, as the timeline dates them', async () => {
    const res = await call(owner, 'GET', `/api/v1/portfolios/${portfolioId}/calendar.ics`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const today = floridaToday(new Date());
    const expected = new Map<string, string>();
    for (const p of await positionsOf(api.t.runtime.sql, portfolioId)) {
      const cert = (await call(owner, 'GET', `/api/v1/certificates/${p.certificate_id}`)).json().data;
      if (cert.status !== 'sold' && cert.status !== 'tax_deed_applied') continue;
      const timeline = await call(owner, 'GET', `/api/v1/certificates/${p.certificate_id}/timeline?date=${today}`);
      expect(timeline.statusCode, timeline.body).toBe(200);
      const { dates } = timeline.json().data;
      if (cert.status === 'sold' && dates.deed_application_earliest >= today)
        expected.set(deadlineUid(p.id, 'deed_application_opens'), dates.deed_application_earliest);
      if (dates.expires !== null && dates.expires >= today) expected.set(deadlineUid(p.id, 'expires'), dates.expires);
    }
    expect(expected.size).toBeGreaterThan(5);
    expect(eventsOf(res.body)).toEqual(expected);
  });

  it('answers at a secret address without a key, the same events, until the address is revoked', async () => {
    const made = await call(owner, 'POST', `/api/v1/portfolios/${portfolioId}/calendar-address`);
    expect(made.statusCode, made.body).toBe(201);
    const { url, token } = made.json().data;
    expect(token).toMatch(/^cal_[A-Za-z0-9_-]{43}$/);
    const path = new URL(url).pathname;
    expect(path).toBe(`/calendar/${token}.ics`);
    const byAddress = await call(undefined, 'GET', path);
    expect(byAddress.statusCode, byAddress.body).toBe(200);
    const byKey = await call(owner, 'GET', `/api/v1/portfolios/${portfolioId}/calendar.ics`);
    expect(eventsOf(byAddress.body)).toEqual(eventsOf(byKey.body));

    // A new address replaces the old one; revoking ends it; a malformed token is a 404 too.
    const again = (await call(owner, 'POST', `/api/v1/portfolios/${portfolioId}/calendar-address`)).json().data;
    expect((await call(undefined, 'GET', path)).statusCode).toBe(404);
    const second = new URL(again.url).pathname;
    expect((await call(undefined, 'GET', second)).statusCode).toBe(200);
    expect((await call(owner, 'DELETE', `/api/v1/portfolios/${portfolioId}/calendar-address`)).statusCode).toBe(200);
    expect((await call(undefined, 'GET', second)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/api/v1/portfolios/${portfolioId}/calendar-address`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', '/calendar/not-a-token.ics')).statusCode).toBe(404);
  });

  it("is another client's 404, by key and for making an address", async () => {
    expect((await call(other, 'GET', `/api/v1/portfolios/${portfolioId}/calendar.ics`)).statusCode).toBe(404);
    expect((await call(other, 'POST', `/api/v1/portfolios/${portfolioId}/calendar-address`)).statusCode).toBe(404);
    expect((await call(other, 'DELETE', `/api/v1/portfolios/${portfolioId}/calendar-address`)).statusCode).toBe(404);
  });
});
