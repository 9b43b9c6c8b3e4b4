import { beforeAll, describe, expect, it } from 'vitest';
import { countyHolderName } from '../../../../services/domain/county-facts.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';
import { type DataReport, checkData, familyOf, isIndividual } from '../../../../services/generator/check-data.ts';
import { LARGE_COUNTIES } from '../../../../services/generator/market.ts';
import { COUNTY_PROFILES } from '../../../../services/generator/counties.ts';
import { isoDay, parseDay, saleDaysIn, saleWindow } from '../../../../services/generator/dates.ts';
import { faceParts } from '../../../../services/generator/face.ts';
import { generateState } from '../../../../services/generator/generate-state.ts';
import { isCountyZip } from '../../../../services/generator/places.ts';

/**
 * The generated market read the way a Florida investor reads it, against chapter 197:
 * an investor does not trust data with a sale after June 1, land unsold past escheat, a
 * redemption after expiry, a fee inside the face, or one county's streets statewide.
 * checkData is what `npm run check:data` prints.
 */
const registry = loadRegistry();
const AS_OF = '2026-11-22';
const generate = (certificates: number, seed: number, today = AS_OF) => generateState({ certificates, seed, today, registry });

const failing = (report: DataReport) => report.checks.filter((c) => c.bad > 0);

describe('a 30,000-certificate set as of November', () => {
  let records: CertificateRecord[] = [];
  let report: DataReport;
  beforeAll(() => {
    records = [...generate(30_000, 20261122).allRecords()];
    report = checkData(records, AS_OF);
  });

  it('passes every investor check, each applying to real numbers of records', () => {
    expect(failing(report)).toEqual([]);
    const of = Object.fromEntries(report.checks.map((c) => [c.name.split(':')[0]!.split(' (')[0]!, c.of]));
    // Lands available come from struck certificates, about 2% of a calibrated market (market.ts).
    expect(of['lands available not past escheat']).toBeGreaterThan(5);
    expect(of['no redemption after expiry']).toBeGreaterThan(20_000);
    expect(of['vintage funds buy only from their vintage year on']).toBeGreaterThan(1000);
    expect(of['metes-and-bounds section-township-range matches the parcel id, or lies in the county']).toBeGreaterThan(1000);
  });

  it('shows nothing advertised in November and no sale in progress', () => {
    expect(records.filter((r) => r.status === 'advertised')).toEqual([]);
    expect(records.filter((r) => r.sale_date > AS_OF)).toEqual([]);
  });

  it('lets struck land escheat after 3 years on the list, as s. 197.502(8) has it (cancelled, with its application)', () => {
    const escheated = records.filter((r) => r.struck_to_county && r.status === 'cancelled' && r.tax_deed_application_date !== null);
    expect(escheated.length).toBeGreaterThan(20);
    for (const r of escheated) expect(r.tax_deed_application_date! < '2023-11-22').toBe(true);
  });

  it('expires certificates 7 years after issue with no deed application, as s. 197.482 has it (cancelled, never redeemed)', () => {
    const expired = records.filter((r) => r.status === 'cancelled' && r.tax_deed_application_date === null && r.sale_date <= '2019-11-22');
    expect(expired.length).toBeGreaterThan(100);
    for (const r of records.filter((x) => x.redeemed && x.tax_deed_application_date === null)) {
      const expiry = `${Number(r.sale_date.slice(0, 4)) + 7}${r.sale_date.slice(4)}`;
      expect(r.redeemed_date! < expiry, `${r.county_slug} ${r.certificate_number}`).toBe(true);
    }
  });

  it('redeems bidder certificates on the documented curve: 10% in a month, two thirds in a year, over 95% eventually', () => {
    // Tax years 2015-2018 were sold by June 2019: 7 years before the as-of date, their outcomes are final.
    const bidder = records.filter((r) => r.tax_year <= 2018 && !r.struck_to_county && r.status !== 'cancelled');
    const byMonths = (m: number) =>
      bidder.filter((r) => {
        if (!r.redeemed_date) return false;
        const [y, mo, d] = r.sale_date.split('-').map(Number) as [number, number, number];
        return r.redeemed_date < new Date(Date.UTC(y, mo - 1 + m, d)).toISOString().slice(0, 10);
      }).length / bidder.length;
    expect(bidder.length).toBeGreaterThan(10_000);
    expect(byMonths(1)).toBeGreaterThan(0.07);
    expect(byMonths(1)).toBeLessThan(0.13);
    expect(byMonths(6)).toBeGreaterThan(0.35);
    expect(byMonths(6)).toBeLessThan(0.45);
    expect(byMonths(12)).toBeGreaterThan(0.6);
    expect(byMonths(12)).toBeLessThan(0.7);
    expect(byMonths(24)).toBeGreaterThan(0.85);
    expect(byMonths(24)).toBeLessThan(0.9);
    expect(bidder.filter((r) => r.redeemed).length / bidder.length).toBeGreaterThan(0.95);
    const applied = bidder.filter((r) => r.tax_deed_application_date !== null);
    expect(applied.length / bidder.length).toBeGreaterThan(0.02);
    expect(applied.length / bidder.length).toBeLessThan(0.05);
    // Most owners still redeem after a deed application, before the deed sale.
    expect(applied.filter((r) => r.redeemed).length / applied.length).toBeGreaterThan(0.5);
    // A 0.25% certificate redeems sooner and reaches a deed application less often than one bid higher.
    const at = (xs: CertificateRecord[]) => ({
      year:
        xs.filter((r) => r.redeemed_date && r.redeemed_date < `${Number(r.sale_date.slice(0, 4)) + 1}${r.sale_date.slice(4)}`).length /
        xs.length,
      applied: xs.filter((r) => r.tax_deed_application_date !== null).length / xs.length,
    });
    const quarter = at(bidder.filter((r) => r.interest_rate === 0.25));
    const higher = at(bidder.filter((r) => r.interest_rate > 0.25));
    expect(quarter.year).toBeGreaterThan(higher.year);
    expect(quarter.applied).toBeLessThan(higher.applied);
    const checked = Object.fromEntries(report.checks.map((c) => [c.name.split(':')[0]!, c.of]));
    expect(checked['bidder certificates of cohorts 7 years old redeem eventually']).toBe(bidder.length);
    expect(checked['bidder certificates of cohorts 7 years old with a deed application']).toBe(bidder.length);
  });

  it('fails the redemption checks when too few redeem or too few reach a deed application', () => {
    const old = (r: CertificateRecord) => r.tax_year <= 2018 && !r.struck_to_county && r.status !== 'cancelled';
    let n = 0;
    const unredeemed = records.map((r) =>
      old(r) && r.redeemed && n++ % 10 === 0
        ? { ...r, status: 'sold' as const, redeemed: false, redeemed_date: null, redemption_amount: null }
        : r,
    );
    const bad = (rs: CertificateRecord[], name: string) => checkData(rs, AS_OF).checks.find((c) => c.name.startsWith(name))!.bad;
    expect(bad(unredeemed, 'bidder certificates of cohorts 7 years old redeem eventually')).toBeGreaterThan(0);
    const neverApplied = records.map((r) => (old(r) ? { ...r, tax_deed_application_date: null } : r));
    expect(bad(neverApplied, 'bidder certificates of cohorts 7 years old with a deed application')).toBeGreaterThan(0);
    expect(bad(records, 'bidder certificates of cohorts 7 years old with a deed application')).toBe(0);
  });

  it('measures no redemption pass or fail without a 7-year-old cohort, and says which cohort its figures come from', () => {
    const young = checkData(generateState({ certificates: 3000, seed: 3, today: AS_OF, registry, firstTaxYear: 2021 }).allRecords(), AS_OF);
    expect(young.checks.find((c) => c.name.startsWith('bidder certificates of cohorts 7 years old redeem'))!.of).toBe(0);
    expect(Object.keys(young.figures)).toContain('redemption, sold to a bidder, tax years 2021-2021 (the oldest, not yet 7 years old)');
    expect(Object.keys(report.figures)).toContain('redemption, sold to a bidder, tax years 2015-2018');
    expect(report.figures['seasoning: mean age of outstanding bidder certificates sold within 24 months']).toMatch(
      /^\d+\.\d months over \d+ certificates$/,
    );
  });

  it('builds the face from tax, 3% interest, 5% commission and the county advertising, never the $6.25 redemption fee', () => {
    const fee = new Map(COUNTY_PROFILES.map((p) => [p.slug, Math.round(p.advertisingFee * 100)]));
    for (const r of records.slice(0, 3000)) {
      const d = Math.round(r.delinquent_amount * 100);
      expect(Math.round(r.face_amount * 100)).toBe(d + Math.round(d * 0.03) + Math.round(d * 0.05) + fee.get(r.county_slug)!);
    }
  });

  it('institutions and their numbered entities hold most bidder-held certificates; individuals a small share', () => {
    const bidderHeld = records.filter((r) => !r.struck_to_county && r.holder_name !== countyHolderName(r.county_name));
    for (const slug of ['miami-dade', 'broward', 'hillsborough', 'orange', 'pinellas', 'duval']) {
      const inCounty = bidderHeld.filter((r) => r.county_slug === slug);
      const share = inCounty.filter((r) => isIndividual(r.holder_name)).length / inCounty.length;
      expect(share, slug).toBeLessThan(0.22);
      expect(share, slug).toBeGreaterThan(0.05);
    }
    const numbered = new Set(bidderHeld.filter((r) => /^FL TAX LIEN FUND \d+ LLC$/.test(r.holder_name)).map((r) => r.holder_name));
    expect(numbered.size).toBeGreaterThanOrEqual(4);
    for (const r of bidderHeld) {
      const vintage = /\b(20\d\d)(-[A-Z])? LLC$/.exec(r.holder_name);
      if (vintage) expect(Number(r.sale_date.slice(0, 4)), `${r.holder_name} on ${r.sale_date}`).toBeGreaterThanOrEqual(Number(vintage[1]));
    }
  });

  it('funds win most certificates at 0.25%, struck shares sit in the published ranges', () => {
    const checked = Object.fromEntries(report.checks.map((c) => [c.name.split(' (')[0]!, c]));
    expect(checked['struck-to-county share of each county in its calibrated range']?.of).toBeGreaterThanOrEqual(6);
    expect(checked['share of sold certificates at 0.25% in each county in its calibrated range']?.of).toBeGreaterThanOrEqual(6);
    for (const slug of LARGE_COUNTIES) {
      const offered = records.filter((r) => r.county_slug === slug);
      const sold = offered.filter((r) => !r.struck_to_county);
      const atQuarter = sold.filter((r) => r.interest_rate === 0.25);
      expect(atQuarter.length / sold.length, slug).toBeGreaterThan(0.78);
      // Nearly every 0.25% winner is a fund entity; people win at the higher rates.
      expect(atQuarter.filter((r) => isIndividual(r.holder_name)).length / atQuarter.length, slug).toBeLessThan(0.06);
      const above = sold.filter((r) => r.interest_rate > 0.25);
      expect(above.filter((r) => isIndividual(r.holder_name)).length / above.length, slug).toBeGreaterThan(0.5);
    }
    const pinellas = records.filter((r) => r.county_slug === 'pinellas');
    expect(pinellas.filter((r) => r.struck_to_county).length / pinellas.length).toBeLessThan(0.01);
    // Struck certificates are the small ones (Hillsborough: mean struck $140-790 against $2,200-3,600 sold).
    const mean = (xs: CertificateRecord[]) => xs.reduce((a, r) => a + r.face_amount, 0) / xs.length;
    expect(mean(records.filter((r) => r.struck_to_county))).toBeLessThan(mean(records.filter((r) => !r.struck_to_county)) / 2);
  });

  it('in the small rural counties people win most certificates, at higher rates, and more go unsold', () => {
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1]!;
    const large = records.filter((r) => r.county_slug === 'hillsborough');
    for (const slug of ['franklin', 'gulf']) {
      const offered = records.filter((r) => r.county_slug === slug);
      const sold = offered.filter((r) => !r.struck_to_county);
      expect(offered.length, slug).toBeGreaterThan(300);
      expect(sold.filter((r) => isIndividual(r.holder_name)).length / sold.length, slug).toBeGreaterThan(0.5);
      const mean = sold.reduce((a, r) => a + r.interest_rate, 0) / sold.length;
      // Franklin 5.5-11%, Gulf ~6% (published averages).
      expect(mean, slug).toBeGreaterThan(4);
      expect(mean, slug).toBeLessThan(14);
      expect(offered.filter((r) => r.struck_to_county).length / offered.length, slug).toBeGreaterThan(0.08);
      expect(median(sold.map((r) => r.face_amount)), slug).toBeLessThan(
        median(large.filter((r) => !r.struck_to_county).map((r) => r.face_amount)),
      );
    }
  });

  it('fund families appear under several spellings across files and years', () => {
    const spellings = new Map<string, Set<string>>();
    for (const r of records) {
      if (r.struck_to_county || isIndividual(r.holder_name)) continue;
      const family = familyOf(r.holder_name);
      spellings.set(family, (spellings.get(family) ?? new Set()).add(r.holder_name.replace(/\d+/g, '#')));
    }
    expect(spellings.get('FL TAX LIEN FUND #')?.size).toBeGreaterThanOrEqual(3);
    expect([...spellings.values()].filter((s) => s.size >= 3).length).toBeGreaterThanOrEqual(8);
    const names = new Set(records.map((r) => r.holder_name));
    expect([...names].some((n) => /^Fl Tax Lien Fund \d+, L\.L\.C\.$/.test(n))).toBe(true);
    expect([...names].some((n) => / AS CUSTODIAN FOR /.test(n))).toBe(true);
    expect([...names].some((n) => / SERIES 20\d\d$/.test(n))).toBe(true);
    // One file spells a family one way.
    const byFile = new Map<string, Set<string>>();
    for (const r of records.filter((x) => familyOf(x.holder_name) === 'FL TAX LIEN FUND #')) {
      const file = `${r.county_slug} ${r.tax_year}`;
      byFile.set(file, (byFile.get(file) ?? new Set()).add(r.holder_name.replace(/\d+/g, '#')));
    }
    for (const [file, s] of byFile) expect(s.size, file).toBe(1);
  });

  it('writes each county its own streets: quadrant grids in Miami-Dade and Broward only', () => {
    const share = (slug: string, re: RegExp) => {
      const inCounty = records.filter((r) => r.county_slug === slug);
      return inCounty.filter((r) => re.test(r.site_address_full)).length / inCounty.length;
    };
    const quadrantFirst = /^\d+ (NW|NE|SW|SE) \d+(ST|ND|RD|TH) /;
    expect(share('miami-dade', quadrantFirst)).toBeGreaterThan(0.7);
    expect(share('broward', quadrantFirst)).toBeGreaterThan(0.4);
    for (const slug of ['hillsborough', 'orange', 'pinellas', 'duval']) expect(share(slug, quadrantFirst), slug).toBe(0);
    expect(share('pinellas', /^\d+ \d+(ST|ND|RD|TH) (AVE|ST|TER|WAY|LN) (N|S|NE|NW|SE|SW)(,| UNIT)/)).toBeGreaterThan(0.3);
    expect(share('hillsborough', /^\d+ [NSEW] \d+(ST|ND|RD|TH) (ST|AVE)(,| UNIT)/)).toBeGreaterThan(0.2);
    expect(records.filter((r) => r.county_slug === 'orange' && / ORLANDO, /.test(r.site_address_full)).length).toBeGreaterThan(100);
  });

  it('gives metes-and-bounds legals the section-township-range their parcel id encodes', () => {
    const metes = records.filter(
      (r) => r.county_slug === 'orange' && r.legal_description && /^\d{2}-\d{2}-\d{2} /.test(r.legal_description),
    );
    expect(metes.length).toBeGreaterThan(20);
    for (const r of metes) expect(r.legal_description!.slice(0, 8)).toBe(r.parcel_id.slice(0, 8));
    const broward = records.filter(
      (r) => r.county_slug === 'broward' && r.legal_description && /^\d{2}-\d{2}-\d{2} /.test(r.legal_description),
    );
    expect(broward.length).toBeGreaterThan(20);
    for (const r of broward) {
      const [tt, rr, ss] = [r.parcel_id.slice(0, 2), r.parcel_id.slice(2, 4), r.parcel_id.slice(5, 7)];
      expect(r.legal_description!.slice(0, 8)).toBe(`${ss}-${tt}-${rr}`);
    }
  });
});

describe('the sale calendar', () => {
  it('keeps every sale day in the last two weeks of May through June 1, on consecutive business days', () => {
    const state = generate(10_000, 1);
    for (const f of state.files) {
      const window = saleWindow(f.taxYear + 1).map(isoDay);
      expect(f.saleDates.every((d) => d >= `${f.taxYear + 1}-05-18` && d <= `${f.taxYear + 1}-06-01`)).toBe(true);
      const first = window.indexOf(f.saleDates[0]!);
      expect(first).toBeGreaterThanOrEqual(0);
      expect(f.saleDates).toEqual(window.slice(first, first + f.saleDates.length));
    }
    // Multi-day online sales keep their length.
    expect(state.files.filter((f) => f.county.slug === 'miami-dade').every((f) => f.saleDates.length === 3)).toBe(true);
  });

  it('skips weekends and Memorial Day, and pulls a late start back so the last day is June 1 at latest', () => {
    // 2026: May 18 is a Monday, Memorial Day is May 25, June 1 is a Monday.
    expect(saleWindow(2026).map(isoDay)).toEqual([
      '2026-05-18',
      '2026-05-19',
      '2026-05-20',
      '2026-05-21',
      '2026-05-22',
      '2026-05-26',
      '2026-05-27',
      '2026-05-28',
      '2026-05-29',
      '2026-06-01',
    ]);
    expect(saleDaysIn(2026, 9, 3).map(isoDay)).toEqual(['2026-05-28', '2026-05-29', '2026-06-01']);
    expect(saleDaysIn(2026, 0, 1).map(isoDay)).toEqual(['2026-05-18']);
    expect(parseDay('2026-06-01')).toBe(saleDaysIn(2026, 20, 1)[0]);
  });
});

describe('advertised follows the as-of calendar', () => {
  it('between the advertising and the sale, only the coming sale is advertised, with its May dates', () => {
    const today = '2026-05-20';
    const records = [...generate(5000, 9, today).allRecords()];
    const advertised = records.filter((r) => r.status === 'advertised');
    expect(advertised.length).toBeGreaterThan(100);
    for (const r of advertised) {
      expect(r.tax_year).toBe(2025);
      expect(r.sale_date > today && r.sale_date <= '2026-06-01').toBe(true);
      expect(r.holder_name).toBe(countyHolderName(r.county_name));
    }
    // Counties whose sale already ran this week have sold their first days.
    expect(records.some((r) => r.tax_year === 2025 && r.status !== 'advertised')).toBe(true);
    expect(failing(checkData(records, today))).toEqual([]);
  });
});

describe('the data tables: face parts and county ZIP codes', () => {
  it('faceParts adds 3% interest (two months at 18% a year, the s. 197.172 minimum) and the 5% commission', () => {
    expect(faceParts(100_000, 925, 2)).toEqual({
      delinquentCents: 100_000,
      interestCents: 3000,
      commissionCents: 5000,
      advertisingCents: 925,
      faceCents: 108_925,
    });
    expect(faceParts(100_000, 0, 3).interestCents).toBe(4500);
    expect(faceParts(100_000, 0, 1).interestCents).toBe(3000);
  });

  it('gives every city only ZIP codes of its own county', () => {
    for (const p of COUNTY_PROFILES)
      for (const city of p.cities)
        for (const zip of city.zips) expect(isCountyZip(p.places, zip), `${p.slug} ${city.name} ${zip}`).toBe(true);
  });
});
