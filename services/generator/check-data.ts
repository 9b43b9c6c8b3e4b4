import { countyHolderName } from '../domain/county-facts.ts';
import type { CertificateRecord } from '../domain/records.ts';
import { COUNTY_PROFILES } from './counties.ts';
import { addMonths, addYears, isoDay, parseDay } from './dates.ts';
import { CALIBRATED_RANGES } from './market.ts';
import { DEED_SALE_DELAY_DAYS, ESCHEAT_YEARS, EXPIRY_YEARS } from './lifecycle.ts';
import { isCountyZip, placesOf, strOfLegal } from './places.ts';
import { createParcelChecker } from './check-parcels.ts';
import { type Check, Tally } from './check-tally.ts';
import type { ParcelRow } from './generate-state.ts';

/**
 * Checks a certificate data set the way an experienced Florida investor reads it
 * (sale dates, escheated lands, expired redemptions, the redemption curve and deed
 * applications, face composition, holders, geography), as counts: what scripts/check-generated-data.ts prints
 * and what the generator's tests assert. Each `bad` count must be 0. The checks
 * read only the records (and the county data of places.ts and counties.ts), not
 * the generator's internals, so they hold for a set read back from its files.
 */

export type { Check } from './check-tally.ts';

export interface DataReport {
  certificates: number;
  asOf: string;
  checks: Check[];
  /** Figures that describe rather than pass or fail. */
  figures: Record<string, string>;
}

/** Words that mark a holder as a company, fund or bank; the rest are people (an IRA "FBO" a person counts as one). */
const INSTITUTION = /\b(LLC|LP|LLLP|INC|CORP|CO|TRUST|FUND|BANK|NA|CAPITAL|PARTNERS|HOLDINGS|TLC|FLTC|CERTIFICATES|SERIES)\b/;
/** Upper case without periods and commas: "Fl Tax Lien Fund 3, L.L.C." reads as FL TAX LIEN FUND 3 LLC. */
const plain = (holder: string) => holder.toUpperCase().replace(/[.,]/g, '');
export const isIndividual = (holder: string) => {
  const h = plain(holder);
  return / FBO .* IRA$/.test(h) || !INSTITUTION.test(h);
};
/**
 * A fund family as a reader of the files sees it: the name without its entity number,
 * vintage or series, legal form, punctuation and custodial wording. Only for the
 * checks' figures; the API's holder groups have their own documented rule.
 */
export function familyOf(holder: string): string {
  return plain(holder)
    .replace(/\b(AS CUSTODIAN FOR|AS CUST FOR|CUST FOR|CUST FBO)\b/g, 'CUST')
    .replace(/\b(LLC|LP|LLLP|INC|CORP|NA|N A|NO)\b/g, ' ')
    .replace(/\b\d+(-[A-Z])?\b/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}
const VINTAGE = /\b(20\d\d)(-[A-Z])?\b/;
const QUADRANT_FIRST = /^\d+ (NW|NE|SW|SE) \d+(ST|ND|RD|TH) /;
const ZIP = /, FL (\d{5})$/;

interface CountySale {
  offered: number;
  struck: number;
  sold: number;
  quarter: number;
  zero: number;
  eighteen: number;
  rateSum: number;
  faceRateSum: number;
  faceSold: number;
}
/**
 * Redemption is measured on cohorts whose sale is at least this many years before the as-of
 * date: by then every certificate has been redeemed, applied on for a deed, or has expired
 * (s. 197.482), so the shares are final but for deed applications still before their sale.
 */
const MATURE_YEARS = EXPIRY_YEARS;
/** Months after the sale at which the redemption curve is read. */
const CURVE_MONTHS = [1, 6, 12, 24] as const;
/** More than 95% of bidder certificates redeem; 2-5% reach a deed application (docs/florida-law.md). */
const MIN_EVENTUAL_REDEEMED = 0.95;
const DEED_APPLIED_RANGE = [0.02, 0.05] as const;

/** One cohort's certificates of one kind, counted for the redemption curve. */
class Curve {
  n = 0;
  redeemed = 0;
  by = CURVE_MONTHS.map(() => 0);
  applied = 0;
  appliedRedeemed = 0;
  /** Cancelled (in error, or expired unapplied), left out of `n`. */
  cancelled = 0;
  see(r: CertificateRecord) {
    this.n++;
    if (r.tax_deed_application_date) this.applied++;
    if (!r.redeemed_date) return;
    this.redeemed++;
    if (r.tax_deed_application_date) this.appliedRedeemed++;
    const sale = parseDay(r.sale_date);
    const redeemed = r.redeemed_date;
    CURVE_MONTHS.forEach((m, i) => {
      if (redeemed < isoDay(addMonths(sale, m))) this.by[i]!++;
    });
  }
  add(other: Curve) {
    this.n += other.n;
    this.redeemed += other.redeemed;
    this.applied += other.applied;
    this.appliedRedeemed += other.appliedRedeemed;
    this.cancelled += other.cancelled;
    other.by.forEach((b, i) => {
      this.by[i]! += b;
    });
  }
  describe(): string {
    const months = CURVE_MONTHS.map((m, i) => `${pct(this.by[i]!, this.n)} by ${m} month${m === 1 ? '' : 's'}`).join(', ');
    return (
      `${this.n} certificates: redeemed ${months}, ${pct(this.redeemed, this.n)} eventually; ` +
      `deed application ${pct(this.applied, this.n)} (${pct(this.appliedRedeemed, this.applied)} of them redeemed), ` +
      `unredeemed after one ${pct(this.applied - this.appliedRedeemed, this.n)}; ` +
      `${this.cancelled} more cancelled (in error or expired), ${pct(this.redeemed, this.n + this.cancelled)} redeemed counting them`
    );
  }
}

/** Below this many certificates a county's shares are too noisy to hold to the published range. */
const MIN_CERTIFICATES_FOR_SHARES = 1000;
/** A family with fewer certificates may honestly show one spelling. */
const MIN_CERTIFICATES_FOR_SPELLINGS = 200;

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
const key = (r: CertificateRecord) => `${r.county_slug} ${r.certificate_number}`;

export interface DataChecker {
  add(record: CertificateRecord): void;
  /** A row of the county's parcel file; a set with parcel files gains the parcel checks (check-parcels.ts). */
  addParcel(countySlug: string, row: ParcelRow): void;
  report(): DataReport;
}

export interface CountyParcelRow {
  county: string;
  row: ParcelRow;
}

export function checkData(records: Iterable<CertificateRecord>, asOf: string, parcels: Iterable<CountyParcelRow> = []): DataReport {
  const checker = createDataChecker(asOf);
  for (const r of records) checker.add(r);
  for (const p of parcels) checker.addParcel(p.county, p.row);
  return checker.report();
}

/** A checker fed one record at a time (a set read back from its files arrives asynchronously). */
export function createDataChecker(asOf: string): DataChecker {
  const today = parseDay(asOf);
  const profiles = new Map(COUNTY_PROFILES.map((p) => [p.slug, p]));
  const saleByJune1 = new Tally();
  const saleWindow = new Tally();
  const advertisedAhead = new Tally();
  const escheat = new Tally();
  const expiredRedeemed = new Tally();
  const expiredOpen = new Tally();
  const face = new Tally();
  const vintage = new Tally();
  const zip = new Tally();
  const str = new Tally();
  const quadrants = new Map<string, [number, number]>();
  const holders = new Map<string, [number, number]>();
  const faceResiduals = new Map<string, Map<number, number>>();
  const lateSaleYears = new Set<string>();
  const countyYears = new Set<string>();
  const markets = new Map<string, CountySale>();
  const families = new Map<string, Map<string, number>>();
  /** Per tax year: bidder certificates at 0% or 0.25%, bidder certificates above, county-held ones; the latest sale day. */
  const cohorts = new Map<number, { quarter: Curve; above: Curve; county: Curve; lastSale: string }>();
  /** Outstanding bidder certificates sold within 24 months of the as-of date: count and summed age in days. */
  let young = 0;
  let youngDays = 0;
  const youngSince = addMonths(today, -24);
  let certificates = 0;
  let advertised = 0;
  let landsAvailable = 0;
  let landsOlderThanThreeYears = 0;
  const parcels = createParcelChecker();

  function add(r: CertificateRecord): void {
    certificates++;
    parcels.addCertificate(r);
    const monthDay = r.sale_date.slice(5);
    countyYears.add(`${r.county_slug} ${r.tax_year}`);
    saleByJune1.see(monthDay <= '06-01', () => `${key(r)} sold ${r.sale_date}`);
    if (monthDay > '06-01') lateSaleYears.add(`${r.county_slug} ${r.tax_year}`);
    saleWindow.see(monthDay >= '05-18' && monthDay <= '06-01', () => `${key(r)} sold ${r.sale_date}`);

    if (r.status === 'advertised') {
      advertised++;
      advertisedAhead.see(r.sale_date > asOf, () => `${key(r)} advertised for ${r.sale_date}`);
    }

    // s. 197.502(8): land on the list 3 years escheats. It is listed at the deed sale, at most
    // DEED_SALE_DELAY_DAYS after the application.
    if (r.status === 'lands_available' && r.tax_deed_application_date) {
      landsAvailable++;
      const applied = parseDay(r.tax_deed_application_date);
      if (addYears(applied, ESCHEAT_YEARS) <= today) landsOlderThanThreeYears++;
      const latestListing = applied + DEED_SALE_DELAY_DAYS.min + DEED_SALE_DELAY_DAYS.spread;
      escheat.see(addYears(latestListing, ESCHEAT_YEARS) > today, () => `${key(r)} applied ${r.tax_deed_application_date}`);
    }

    // s. 197.482(1): 7 years after issue with no deed application, a certificate is void.
    const expiry = addYears(parseDay(r.sale_date), EXPIRY_YEARS);
    const appliedInTime = r.tax_deed_application_date !== null && parseDay(r.tax_deed_application_date) < expiry;
    if (r.redeemed && r.redeemed_date)
      expiredRedeemed.see(
        parseDay(r.redeemed_date) < expiry || appliedInTime,
        () => `${key(r)} sold ${r.sale_date}, redeemed ${r.redeemed_date}`,
      );
    if (r.status === 'sold' || r.status === 'available')
      expiredOpen.see(expiry > today, () => `${key(r)} ${r.status} since ${r.sale_date}`);

    // Face = delinquent + 3% interest + 5% commission + the county's advertising charge.
    const d = Math.round(r.delinquent_amount * 100);
    const residual = Math.round(r.face_amount * 100) - d - Math.round((d * 3) / 100) - Math.round((d * 5) / 100);
    const advertising = Math.round((profiles.get(r.county_slug)?.advertisingFee ?? Number.NaN) * 100);
    face.see(residual === advertising, () => `${key(r)} face ${r.face_amount} on ${r.delinquent_amount}`);
    const residuals = faceResiduals.get(r.county_slug) ?? new Map<number, number>();
    residuals.set(residual, (residuals.get(residual) ?? 0) + 1);
    faceResiduals.set(r.county_slug, residuals);

    if (r.status !== 'advertised') {
      const m = markets.get(r.county_slug) ?? {
        offered: 0,
        struck: 0,
        sold: 0,
        quarter: 0,
        zero: 0,
        eighteen: 0,
        rateSum: 0,
        faceRateSum: 0,
        faceSold: 0,
      };
      m.offered++;
      if (r.struck_to_county) m.struck++;
      else {
        m.sold++;
        if (r.interest_rate === 0.25) m.quarter++;
        if (r.interest_rate === 0) m.zero++;
        if (r.interest_rate === 18) m.eighteen++;
        m.rateSum += r.interest_rate;
        m.faceRateSum += r.interest_rate * r.face_amount;
        m.faceSold += r.face_amount;
      }
      markets.set(r.county_slug, m);
    }

    // Sold to a bidder: offered, not struck to the county; a cancelled certificate is left out
    // (issued in error, or expired unapplied: the files do not say which).
    if (r.status !== 'advertised') {
      const cohort = cohorts.get(r.tax_year) ?? { quarter: new Curve(), above: new Curve(), county: new Curve(), lastSale: r.sale_date };
      if (r.sale_date > cohort.lastSale) cohort.lastSale = r.sale_date;
      cohorts.set(r.tax_year, cohort);
      const curve = r.struck_to_county ? cohort.county : r.interest_rate <= 0.25 ? cohort.quarter : cohort.above;
      if (r.status === 'cancelled') curve.cancelled++;
      else if (r.struck_to_county) curve.see(r);
      else if (r.status !== 'available') {
        curve.see(r);
        const sale = parseDay(r.sale_date);
        if (r.status === 'sold' && sale > youngSince) {
          young++;
          youngDays += today - sale;
        }
      }
    }

    const countyHeld = r.struck_to_county || r.holder_name === countyHolderName(r.county_name);
    if (!countyHeld && !isIndividual(r.holder_name)) {
      const family = familyOf(r.holder_name);
      const spellings = families.get(family) ?? new Map<string, number>();
      const spelling = r.holder_name.replace(/\d+(-[A-Z])?/g, '#');
      spellings.set(spelling, (spellings.get(spelling) ?? 0) + 1);
      families.set(family, spellings);
    }
    if (!countyHeld) {
      const h = holders.get(r.county_slug) ?? [0, 0];
      h[0]++;
      if (isIndividual(r.holder_name)) h[1]++;
      holders.set(r.county_slug, h);
      const m = VINTAGE.exec(r.holder_name);
      if (m) vintage.see(Number(r.sale_date.slice(0, 4)) >= Number(m[1]), () => `${r.holder_name} bought ${key(r)} on ${r.sale_date}`);
    }

    const places = placesOf(r.county_slug);
    const z = ZIP.exec(r.site_address_full);
    zip.see(z !== null && isCountyZip(places, Number(z[1])), () => `${key(r)}: ${r.site_address_full}`);
    const q = quadrants.get(r.county_slug) ?? [0, 0];
    q[0]++;
    if (QUADRANT_FIRST.test(r.site_address_full)) q[1]++;
    quadrants.set(r.county_slug, q);

    const legal = strOfLegal(r.legal_description);
    if (legal) {
      const encoded = profiles.get(r.county_slug)?.strOfParcelId(r.parcel_id) ?? null;
      const ok = encoded
        ? encoded.section === legal.section && encoded.township === legal.township && encoded.range === legal.range
        : legal.section >= 1 &&
          legal.section <= 36 &&
          legal.township >= places.townships[0] &&
          legal.township <= places.townships[1] &&
          legal.range >= places.ranges[0] &&
          legal.range <= places.ranges[1];
      str.see(ok, () => `${key(r)} parcel ${r.parcel_id}, legal ${r.legal_description?.split('\n')[0]}`);
    }
  }

  function report(): DataReport {
    // Market shares are checked on counties with enough certificates for the share to mean something.
    const struckShare = new Tally();
    const quarterShare = new Tally();
    for (const [county, m] of [...markets].sort()) {
      if (m.offered < MIN_CERTIFICATES_FOR_SHARES) continue;
      const range: readonly [number, number] | undefined = (CALIBRATED_RANGES.struck as Record<string, readonly [number, number]>)[county];
      if (range)
        struckShare.see(
          m.struck / m.offered >= range[0] && m.struck / m.offered <= range[1],
          () => `${county}: ${pct(m.struck, m.offered)} struck`,
        );
      const q: readonly [number, number] | undefined = (CALIBRATED_RANGES.quarter as Record<string, readonly [number, number]>)[county];
      if (q)
        quarterShare.see(m.quarter / m.sold >= q[0] && m.quarter / m.sold <= q[1], () => `${county}: ${pct(m.quarter, m.sold)} at 0.25%`);
    }
    const spelled = new Tally();
    for (const [family, spellings] of [...families].sort()) {
      const n = [...spellings.values()].reduce((a, b) => a + b, 0);
      if (n >= MIN_CERTIFICATES_FOR_SPELLINGS)
        spelled.see(spellings.size >= 2, () => `${family}: only ${[...spellings.keys()].join(', ')}`);
    }
    // The cohorts sold at least MATURE_YEARS before the as-of date, or else the oldest one.
    const years = [...cohorts.keys()].sort((a, b) => a - b);
    const mature = years.filter((y) => addYears(parseDay(cohorts.get(y)!.lastSale), MATURE_YEARS) <= today);
    const measured = mature.length > 0 ? mature : years.slice(0, 1);
    const quarter = new Curve();
    const above = new Curve();
    const county = new Curve();
    for (const y of measured) {
      quarter.add(cohorts.get(y)!.quarter);
      above.add(cohorts.get(y)!.above);
      county.add(cohorts.get(y)!.county);
    }
    const bidder = new Curve();
    bidder.add(quarter);
    bidder.add(above);
    const cohortName =
      measured.length === 0
        ? 'no cohort'
        : `tax years ${measured[0]}-${measured[measured.length - 1]}${mature.length > 0 ? '' : ' (the oldest, not yet 7 years old)'}`;
    // Pooled over the mature cohorts; below MIN_CERTIFICATES_FOR_SHARES the shares are too noisy to
    // hold to a range. The oldest cohort stands in only for the figures: it has not finished redeeming.
    const eventual = new Tally();
    const applied = new Tally();
    if (mature.length > 0 && bidder.n >= MIN_CERTIFICATES_FOR_SHARES) {
      // Bad: the redemptions short of the share, and the applications outside the range.
      const short = Math.max(0, Math.floor(MIN_EVENTUAL_REDEEMED * bidder.n) + 1 - bidder.redeemed);
      const outside = Math.max(
        0,
        Math.ceil(DEED_APPLIED_RANGE[0] * bidder.n) - bidder.applied,
        bidder.applied - Math.floor(DEED_APPLIED_RANGE[1] * bidder.n),
      );
      eventual.of = bidder.n;
      eventual.bad = short;
      if (short > 0) eventual.examples.push(`${cohortName}: ${pct(bidder.redeemed, bidder.n)} redeemed`);
      applied.of = bidder.n;
      applied.bad = outside;
      if (outside > 0) applied.examples.push(`${cohortName}: ${pct(bidder.applied, bidder.n)} with a deed application`);
    }
    const figures: Record<string, string> = {
      'county-years': String(countyYears.size),
      'county-years with a sale day after June 1': String(lateSaleYears.size),
      'advertised certificates': String(advertised),
      'lands available': `${landsAvailable} (${landsOlderThanThreeYears} applied on more than 3 years ago, listed later)`,
      [`redemption, sold to a bidder, ${cohortName}`]: bidder.describe(),
      [`redemption, sold to a bidder at 0% or 0.25%, ${cohortName}`]: quarter.describe(),
      [`redemption, sold to a bidder above 0.25%, ${cohortName}`]: above.describe(),
      [`redemption, struck to the county, ${cohortName}`]: county.describe(),
      'seasoning: mean age of outstanding bidder certificates sold within 24 months':
        young === 0 ? '-' : `${(youngDays / young / (365.25 / 12)).toFixed(1)} months over ${young} certificates`,
    };
    for (const [county, residuals] of [...faceResiduals].sort()) {
      const parts = [...residuals].sort((a, b) => b[1] - a[1]).map(([cents, n]) => `$${(cents / 100).toFixed(2)} x ${n}`);
      figures[`face - delinquent x 1.08 (advertising), ${county}`] = parts.slice(0, 3).join(', ');
    }
    for (const [county, m] of [...markets].sort())
      figures[`sale, ${county}`] =
        `${m.offered} offered, ${pct(m.struck, m.offered)} struck; of ${m.sold} sold ${pct(m.quarter, m.sold)} at 0.25%, ` +
        `${pct(m.zero, m.sold)} at 0%, ${pct(m.eighteen, m.sold)} at 18%; mean rate ${(m.rateSum / Math.max(1, m.sold)).toFixed(2)}%, ` +
        `face-weighted ${(m.faceRateSum / Math.max(1, m.faceSold)).toFixed(2)}%`;
    const familyRows = [...families]
      .map(([f, sp]) => ({ f, n: [...sp.values()].reduce((a, b) => a + b, 0), sp }))
      .sort((a, b) => b.n - a.n);
    for (const { f, n, sp } of familyRows.slice(0, 8))
      figures[`fund family ${f}`] = `${n} certificates under ${sp.size} spellings: ${[...sp.keys()].slice(0, 3).join(' / ')}`;
    for (const [county, [all, people]] of [...holders].sort())
      figures[`individuals among bidder-held, ${county}`] = `${pct(people, all)} of ${all}`;
    for (const [county, [all, grid]] of [...quadrants].sort())
      figures[`quadrant-first addresses (NW 27TH AVE), ${county}`] = pct(grid, all);

    return {
      certificates,
      asOf,
      checks: [
        saleByJune1.check('sold on or before June 1 (s. 197.402(3))'),
        saleWindow.check('sold in the last two weeks of May through June 1'),
        advertisedAhead.check('advertised only for a sale still ahead of the as-of date'),
        escheat.check('lands available not past escheat: 3 years on the list (s. 197.502(8))'),
        expiredRedeemed.check('no redemption after expiry: 7 years from issue without a deed application (s. 197.482)'),
        expiredOpen.check('no sold or available certificate past expiry (s. 197.482)'),
        face.check('face = delinquent + 3% interest + 5% commission + advertising (s. 197.432, 197.172, 192.091)'),
        vintage.check('vintage funds buy only from their vintage year on'),
        zip.check('address ZIP code in the county'),
        str.check('metes-and-bounds section-township-range matches the parcel id, or lies in the county'),
        struckShare.check('struck-to-county share of each county in its calibrated range (market.ts)'),
        quarterShare.check('share of sold certificates at 0.25% in each county in its calibrated range (market.ts)'),
        spelled.check('fund families appear under several spellings across files and years'),
        eventual.check('bidder certificates of cohorts 7 years old redeem eventually: above 95%'),
        applied.check('bidder certificates of cohorts 7 years old with a deed application: 2-5%'),
        ...(parcels.rows() > 0 ? parcels.checks() : []),
      ],
      figures: { ...figures, ...(parcels.rows() > 0 ? parcels.figures() : {}) },
    };
  }

  return { add, addParcel: parcels.addParcel, report };
}

export function formatReport(report: DataReport): string {
  const lines = [`${report.certificates.toLocaleString('en-US')} certificates as of ${report.asOf}`, ''];
  const width = Math.max(...report.checks.map((c) => c.name.length));
  for (const c of report.checks) {
    lines.push(
      `${c.bad === 0 ? 'ok  ' : 'FAIL'} ${c.name.padEnd(width)}  ${c.bad.toLocaleString('en-US')} bad of ${c.of.toLocaleString('en-US')}`,
    );
    for (const e of c.examples) lines.push(`       e.g. ${e}`);
  }
  lines.push('');
  const fw = Math.max(...Object.keys(report.figures).map((k) => k.length));
  for (const [k, v] of Object.entries(report.figures)) lines.push(`${k.padEnd(fw)}  ${v}`);
  return lines.join('\n');
}
