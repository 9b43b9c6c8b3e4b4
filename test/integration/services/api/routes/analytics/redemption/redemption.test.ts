import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateRecord } from '../../../../../../../services/domain/records.ts';
import { generateState } from '../../../../../../../services/generator/generate-state.ts';
import { openSeededApi, type SeededApi } from '../seeded-api.ts';
import { cohortOf, independentCurve, independentYield, type Scope } from './independent.ts';

/**
 * The redemption curve and expected yield on a 3-shard index of a generated market, against an
 * independent computation of the definitions over the same raw rows: every count, survival and
 * share to 6 decimals, every yield and won share to 4.
 */
const AS_OF = '2026-11-22';
let api: SeededApi;
let rows: CertificateRecord[];
let largest: string;

beforeAll(async () => {
  rows = [...generateState({ certificates: 12_000, seed: 38, today: AS_OF }).allRecords()];
  api = await openSeededApi(import.meta.url, rows);
  const perCounty = new Map<string, number>();
  for (const r of rows) perCounty.set(r.county_slug, (perCounty.get(r.county_slug) ?? 0) + 1);
  largest = [...perCounty].sort((a, b) => b[1] - a[1])[0]![0];
});
afterAll(async () => {
  await api?.close();
});

async function get(url: string) {
  const res = await api.app.inject({ method: 'GET', url, headers: api.auth });
  return { status: res.statusCode, body: res.json() };
}

function query(scope: Scope, asOf: string): string {
  const parts = Object.entries(scope).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  return [...parts, `as_of=${asOf}`].join('&');
}

const ALL_RATES = Array.from({ length: 73 }, (_, i) => i / 4);

describe('GET /analytics/redemption-curve and /analytics/expected-yield over a generated market', () => {
  const cases: { name: string; scope: () => Scope; asOf: string }[] = [
    { name: 'the largest county, every year', scope: () => ({ county: [largest] }), asOf: AS_OF },
    { name: 'the whole index', scope: () => ({}), asOf: AS_OF },
    {
      name: 'one county, two years, a face and rate band, an earlier day',
      scope: () => ({ county: [largest], tax_year: [2021, 2022], face_min: 200, face_max: 5000, rate_min: 0.25, rate_max: 8 }),
      asOf: '2024-02-14',
    },
    // Mid-month days: redemptions later in the day's own month have not happened yet on the day.
    { name: 'the whole index, mid-month', scope: () => ({}), asOf: '2025-11-12' },
  ];

  for (const c of cases) {
    it(`${c.name}: the curve equals the independent computation`, async () => {
      const scope = c.scope();
      const cohort = cohortOf(rows, scope, c.asOf);
      expect(cohort.length).toBeGreaterThan(100);
      const { answer } = independentCurve(cohort, c.asOf);
      const res = await get(`/api/v1/analytics/redemption-curve?${query(scope, c.asOf)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { scope: echoed, ...figures } = res.body.data;
      expect(echoed.as_of).toBe(c.asOf);
      expect(figures).toEqual(answer);
    });

    it(`${c.name}: every rate's expected yield equals the independent computation`, async () => {
      const scope = c.scope();
      const cohort = cohortOf(rows, scope, c.asOf);
      const { survival } = independentCurve(cohort, c.asOf);
      for (const [horizon, target] of [
        [84, 10],
        [24, 20],
      ] as const) {
        const res = await get(`/api/v1/analytics/expected-yield?${query(scope, c.asOf)}&horizon_months=${horizon}&target_yield=${target}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const { scope: _, horizon_months, target_yield, ...figures } = res.body.data;
        expect([horizon_months, target_yield]).toEqual([horizon, target]);
        expect(figures).toEqual(independentYield(cohort, survival, horizon, ALL_RATES, target));
      }
    });
  }

  it('answers the rates asked for, ascending, once each', async () => {
    const res = await get(`/api/v1/analytics/expected-yield?county=${largest}&as_of=${AS_OF}&rates=18,0.25,5,0.25`);
    expect(res.status).toBe(200);
    expect(res.body.data.rates.map((r: { rate: number }) => r.rate)).toEqual([0.25, 5, 18]);
    expect(res.body.data.lowest_rate_meeting_target).toBeNull();
  });

  it("shows the generated market's documented shape: cohorts 7 years old redeem above 95%, two thirds within a year", async () => {
    const res = await get(`/api/v1/analytics/redemption-curve?tax_year=2015,2016,2017,2018&as_of=${AS_OF}`);
    expect(res.status).toBe(200);
    const by = Object.fromEntries(res.body.data.redeemed_share_by.map((s: { months: number; share: number }) => [s.months, s.share]));
    expect(by[84]).toBeGreaterThan(0.95);
    expect(by[12]).toBeGreaterThan(0.55);
    expect(by[12]).toBeLessThan(0.75);
    expect(by[24]).toBeGreaterThan(0.8);
  });
});

describe('empty cohorts and bad input', () => {
  it('a scope without certificates is a 200 with certificates 0 and a flat curve of nulls', async () => {
    const curve = await get('/api/v1/analytics/redemption-curve?face_min=999999999');
    expect(curve.status).toBe(200);
    expect(curve.body.data).toMatchObject({ certificates: 0, redeemed: 0, median_months: null, observed_through_months: null });
    expect(curve.body.data.curve).toHaveLength(85);
    expect(curve.body.data.curve.every((m: { at_risk: number; survival: null }) => m.at_risk === 0 && m.survival === null)).toBe(true);
    expect(curve.body.data.redeemed_share_by.every((s: { share: null }) => s.share === null)).toBe(true);
    const yields = await get('/api/v1/analytics/expected-yield?face_min=999999999&target_yield=5&rates=0.25,18');
    expect(yields.status).toBe(200);
    expect(yields.body.data).toMatchObject({
      certificates: 0,
      redeemed_within_horizon: null,
      lowest_rate_meeting_target: null,
      rates: [
        { rate: 0.25, expected_yield: null, won_above: null, won_at: null },
        { rate: 18, expected_yield: null, won_above: null, won_at: null },
      ],
    });
    expect(JSON.stringify(yields.body)).not.toContain('NaN');
  });

  const refused: [string, string, RegExp][] = [
    ['/api/v1/analytics/expected-yield?rates=0.3', 'rates', /quarter points/],
    ['/api/v1/analytics/expected-yield?rates=18.25', 'rates', /quarter points/],
    ['/api/v1/analytics/redemption-curve?rate_min=5&rate_max=1', 'rate_min', /must not be greater than rate_max/],
    ['/api/v1/analytics/redemption-curve?face_min=500&face_max=10', 'face_min', /must not be greater than face_max/],
    ['/api/v1/analytics/expected-yield?horizon_months=0', 'horizon_months', /from 1 to 84/],
    ['/api/v1/analytics/expected-yield?horizon_months=85', 'horizon_months', /from 1 to 84/],
    ['/api/v1/analytics/expected-yield?target_yield=-1', 'target_yield', /from 0 to 100/],
    [
      '/api/v1/analytics/redemption-curve?as_of=1999-01-01',
      'as_of',
      /before every sale in scope: the first certificate was sold on \d{4}-\d{2}-\d{2}/,
    ],
    ['/api/v1/analytics/redemption-curve?as_of=2999-01-01', 'as_of', /must not be after today/],
    ['/api/v1/analytics/redemption-curve?as_of=2024-02-30', 'as_of', /real calendar date/],
    ['/api/v1/analytics/redemption-curve?county=atlantis', 'county', /atlantis/],
    ['/api/v1/analytics/redemption-curve?horizon_months=12', 'horizon_months', /./],
  ];
  for (const [url, parameter, message] of refused)
    it(`${url.split('?')[1]} is a 400 naming ${parameter}`, async () => {
      const res = await get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
      const issue = res.body.error.details.issues.find((i: { parameter: string }) => i.parameter === parameter);
      expect(issue, JSON.stringify(res.body.error)).toBeDefined();
      expect(issue.message).toMatch(message);
    });
});
