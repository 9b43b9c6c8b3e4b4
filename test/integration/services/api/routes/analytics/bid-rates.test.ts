import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { objectResponse } from '../../../../../../services/api/envelope.ts';
import { BidRateAnalytics } from '../../../../../../services/api/routes/analytics/bid-rates/row.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { countyHolderName } from '../../../../../../services/domain/county-facts.ts';
import { holderId } from '../../../../../../services/domain/ids.ts';
import type { CertificateRecord, CertificateStatus } from '../../../../../../services/domain/records.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';
import { loadOnThreeShards } from '../certificates/seed.ts';

/**
 * GET /analytics/bid-rates on a 3-shard index, against figures worked by hand.
 * The seed holds certificates sold to bidders at known rates and faces, plus
 * some that must stay out of every figure: struck to the county (counted apart),
 * and available or advertised ones nobody has bought.
 */

const NAMES: Record<string, string> = { alachua: 'Alachua', broward: 'Broward', duval: 'Duval' };

interface Row {
  county: string;
  year: number;
  vendor: string;
  status: CertificateStatus;
  rate: number;
  face: number;
  struck?: boolean;
}

const ROWS: Row[] = [
  // alachua 2023, tax_collector: six sold to bidders.
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'sold', rate: 0.25, face: 1000.1 },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'sold', rate: 0.25, face: 2000.2 },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'redeemed', rate: 0.25, face: 500.05 },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'sold', rate: 18, face: 100 },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'tax_deed_applied', rate: 5.25, face: 300.3 },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'cancelled', rate: 0, face: 700.07 },
  // ... and out of the figures: two struck (one back on the county's available list), one advertised, one available.
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'available', rate: 18, face: 50, struck: true },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'lands_available', rate: 18, face: 60, struck: true },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'advertised', rate: 18, face: 80 },
  { county: 'alachua', year: 2023, vendor: 'tax_collector', status: 'available', rate: 18, face: 90 },
  // broward 2023, lienport: seven sold, one struck.
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'sold', rate: 0.25, face: 1500 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'sold', rate: 0.25, face: 1500 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'sold', rate: 0.25, face: 1500.01 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'sold', rate: 1, face: 250.5 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'redeemed', rate: 5, face: 400.4 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'sold', rate: 12.5, face: 125.25 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'sold', rate: 18, face: 99.99 },
  { county: 'broward', year: 2023, vendor: 'lienport', status: 'cancelled', rate: 18, face: 33.33, struck: true },
  // broward 2024, certbid: three sold, one advertised.
  { county: 'broward', year: 2024, vendor: 'certbid', status: 'sold', rate: 0.25, face: 10000 },
  { county: 'broward', year: 2024, vendor: 'certbid', status: 'sold', rate: 0, face: 20000 },
  { county: 'broward', year: 2024, vendor: 'certbid', status: 'sold', rate: 17.75, face: 75.75 },
  { county: 'broward', year: 2024, vendor: 'certbid', status: 'advertised', rate: 18, face: 88.88 },
  // duval 2024, tax_collector: two sold.
  { county: 'duval', year: 2024, vendor: 'tax_collector', status: 'sold', rate: 3, face: 1000 },
  { county: 'duval', year: 2024, vendor: 'tax_collector', status: 'sold', rate: 6, face: 2000 },
];

function record(r: Row, n: number): CertificateRecord {
  const countyHeld = r.struck === true || r.status === 'available' || r.status === 'advertised';
  const holder = countyHeld ? countyHolderName(NAMES[r.county]!) : ['Gulf Coast Lien Fund II LLC', 'Jane Doe'][n % 2]!;
  const redeemed = r.status === 'redeemed';
  const deed = r.status === 'tax_deed_applied' || r.status === 'lands_available';
  return sampleCertificate(
    {
      certificate_number: `${r.year}-${String(n).padStart(5, '0')}`,
      county_slug: r.county,
      county_name: NAMES[r.county]!,
      tax_year: r.year,
      status: r.status,
      interest_rate: r.rate,
      face_amount: r.face,
      struck_to_county: r.struck === true,
      holder_name: holder,
      holder_id: holderId(holder),
      vendor: r.vendor,
      redeemed,
      redeemed_date: redeemed ? `${r.year + 2}-01-15` : null,
      tax_deed_application_date: deed ? `${r.year + 3}-05-01` : null,
    },
    n,
  );
}

/** An independent oracle: the figures straight from the records, by sorting every rate. */
function oracle(rows: Row[]) {
  const sold = rows.filter((r) => !r.struck && r.status !== 'available' && r.status !== 'advertised');
  const rates = sold.map((r) => r.rate).sort((a, b) => a - b);
  const at = (p: number) => rates[Math.max(1, Math.ceil(p * rates.length)) - 1];
  return {
    certificates: sold.length,
    struck_to_county: rows.filter((r) => r.struck).length,
    faceCents: sold.reduce((s, r) => s + Math.round(r.face * 100), 0),
    min: rates[0],
    p25: at(0.25),
    median: at(0.5),
    p75: at(0.75),
    max: rates.at(-1),
  };
}

describe('GET /analytics/bid-rates on a 3-shard index', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let key: Record<string, string>;
  const get = (url: string): Promise<LightMyRequestResponse> => app.inject({ method: 'GET', url, headers: key });
  const data = async (qs: string) => {
    const res = await get(`/api/v1/analytics/bid-rates${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(objectResponse(BidRateAnalytics).parse(body)).toEqual(body);
    return body.data as BidRateAnalytics;
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    await loadOnThreeShards(t.runtime.opensearch, t.config.INDEX_PREFIX, ROWS.map(record));
    // Every shard holds some of the certificates, so the figures are merged from all three.
    const shards = await t.runtime.opensearch.cat.shards({ index: `${t.config.INDEX_PREFIX}*certificates*`, format: 'json' });
    const docs = (shards.body as { docs: string }[]).map((s) => Number(s.docs));
    expect(docs).toHaveLength(3);
    expect(docs.every((d) => d > 0)).toBe(true);
    app = await buildApp(t.runtime);
    key = await apiKeyHeaders(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
  });

  it('answers the whole data set as worked by hand', async () => {
    const d = await data('');
    expect(d.scope).toEqual({ county: null, tax_year: null, vendor: null });
    // 6 + 7 + 3 + 2 sold to bidders; struck: alachua's two and broward's one.
    expect(d.certificates).toBe(18);
    expect(d.struck_to_county).toBe(3);
    // Histogram faces: 0: 700.07 + 20000; 0.25: 1000.10 + 2000.20 + 500.05 + 1500 + 1500 + 1500.01 + 10000; 18: 100 + 99.99.
    expect(d.histogram).toEqual([
      { rate: 0, certificates: 2, face_amount: 20700.07 },
      { rate: 0.25, certificates: 7, face_amount: 18000.36 },
      { rate: 1, certificates: 1, face_amount: 250.5 },
      { rate: 3, certificates: 1, face_amount: 1000 },
      { rate: 5, certificates: 1, face_amount: 400.4 },
      { rate: 5.25, certificates: 1, face_amount: 300.3 },
      { rate: 6, certificates: 1, face_amount: 2000 },
      { rate: 12.5, certificates: 1, face_amount: 125.25 },
      { rate: 17.75, certificates: 1, face_amount: 75.75 },
      { rate: 18, certificates: 2, face_amount: 199.99 },
    ]);
    expect(d.face_amount).toBe(43052.62);
    // n = 18: p25 rank ceil(4.5) = 5 -> 0.25 (ranks 3-9 are 0.25); median rank 9 -> 0.25; p75 rank ceil(13.5) = 14 -> 6.
    // mean = (7 x 0.25 + 1 + 3 + 5 + 5.25 + 6 + 12.5 + 17.75 + 2 x 18) / 18 = 88.25 / 18 = 4.90277... -> 4.9028.
    // face-weighted = sum(rate x cents) / 4305262 cents = 2983917.25 / 4305262 = 0.69308... -> 0.6931.
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: a weighted mean that happens to round to ln 2's digits
    expect(d.rate).toEqual({ min: 0, p25: 0.25, median: 0.25, p75: 6, max: 18, mean: 4.9028, face_weighted_mean: 0.6931 });
    // 2/18, 7/18, 10/18, 6/18 (5.25, 6, 12.5, 17.75, 18, 18), 2/18; half up at the 4th decimal.
    expect(d.shares).toEqual({ zero: 0.1111, quarter: 0.3889, at_or_below_1: 0.5556, above_5: 0.3333, at_18: 0.1111 });
    expect(d.by_county).toEqual([
      // 0, 0.25 x4, 1, 5, 12.5, 17.75, 18: median rank 5.
      { county: 'broward', certificates: 10, median: 0.25, share_quarter: 0.4, share_above_5: 0.3 },
      // 0, 0.25 x3, 5.25, 18: median rank 3.
      { county: 'alachua', certificates: 6, median: 0.25, share_quarter: 0.5, share_above_5: 0.3333 },
      // 3, 6: median rank 1.
      { county: 'duval', certificates: 2, median: 3, share_quarter: 0, share_above_5: 0.5 },
    ]);
  });

  it('scopes by county, tax year and vendor as certificate search does', async () => {
    // broward 2023: 0.25 x3, 1, 5, 12.5, 18; p25 rank 2, median rank 4, p75 rank ceil(5.25) = 6;
    // mean 37.25 / 7 = 5.32142...; face-weighted 674294.75 / 537615 cents = 1.25423...; shares 3/7 and 2/7.
    const expected = {
      certificates: 7,
      struck_to_county: 1,
      face_amount: 5376.15,
      rate: { min: 0.25, p25: 0.25, median: 1, p75: 12.5, max: 18, mean: 5.3214, face_weighted_mean: 1.2542 },
      by_county: [{ county: 'broward', certificates: 7, median: 1, share_quarter: 0.4286, share_above_5: 0.2857 }],
    };
    const scoped = await data('?county=broward&tax_year=2023');
    expect(scoped).toMatchObject({ ...expected, scope: { county: ['broward'], tax_year: [2023], vendor: null } });
    // The vendor matches ignoring case; the same certificates.
    const byVendor = await data('?vendor=LIENPORT');
    expect(byVendor).toMatchObject({ ...expected, scope: { county: null, tax_year: null, vendor: ['LIENPORT'] } });
    expect(byVendor.rate).toEqual(scoped.rate);
    // Several counties, repeated or comma-separated.
    for (const qs of ['?county=alachua&county=duval', '?county=alachua,duval']) {
      const two = await data(qs);
      expect(two.certificates).toBe(8);
      expect(two.by_county.map((c) => c.county)).toEqual(['alachua', 'duval']);
      expect(two.scope.county).toEqual(['alachua', 'duval']);
    }
  });

  it('agrees with an oracle that sorts every rate, for every scope', async () => {
    const scopes: [string, (r: Row) => boolean][] = [
      ['', () => true],
      ['?county=broward', (r) => r.county === 'broward'],
      ['?tax_year=2024', (r) => r.year === 2024],
      ['?county=alachua,broward&tax_year=2023', (r) => r.year === 2023],
      ['?vendor=tax_collector,certbid', (r) => r.vendor !== 'lienport'],
    ];
    for (const [qs, keep] of scopes) {
      const d = await data(qs);
      const o = oracle(ROWS.filter(keep));
      expect({ ...d.rate, n: d.certificates, struck: d.struck_to_county, cents: Math.round(d.face_amount * 100) }, qs).toMatchObject({
        min: o.min,
        p25: o.p25,
        median: o.median,
        p75: o.p75,
        max: o.max,
        n: o.certificates,
        struck: o.struck_to_county,
        cents: o.faceCents,
      });
      expect(
        d.histogram.reduce((s, h) => s + h.certificates, 0),
        qs,
      ).toBe(d.certificates);
      expect(
        d.by_county.reduce((s, c) => s + c.certificates, 0),
        qs,
      ).toBe(d.certificates);
    }
  });

  it('answers zeros and nulls for a real county without certificates', async () => {
    const d = await data('?county=baker');
    expect(d).toEqual({
      scope: { county: ['baker'], tax_year: null, vendor: null },
      certificates: 0,
      struck_to_county: 0,
      face_amount: 0,
      rate: { min: null, p25: null, median: null, p75: null, max: null, mean: null, face_weighted_mean: null },
      shares: { zero: null, quarter: null, at_or_below_1: null, above_5: null, at_18: null },
      histogram: [],
      by_county: [],
    });
  });

  it('answers 400 naming the parameter, as search does', async () => {
    const cases: [string, string[]][] = [
      ['county=atlantis', ['county']],
      ['county=broward,atlantis', ['county']],
      ['tax_year=twenty', ['tax_year']],
      ['tax_year=1800', ['tax_year']],
      ['vendor=', ['vendor']],
      ['status=sold', ['status']],
      ['limit=5', ['limit']],
    ];
    for (const [qs, parameters] of cases) {
      const res = await get(`/api/v1/analytics/bid-rates?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      const body = res.json();
      expect(body.error.code).toBe('bad_request');
      expect(
        body.error.details.issues.map((i: { parameter: string }) => i.parameter),
        qs,
      ).toEqual(parameters);
    }
  });
});
