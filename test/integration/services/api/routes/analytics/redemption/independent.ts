import type { CertificateRecord } from '../../../../../../../services/domain/records.ts';

/**
 * The redemption curve and expected yield computed a second way, straight from the
 * definitions over raw certificate rows: each row's own time, a fraction type of its own, and
 * nothing from the service's code. The routes' answers must equal it to every printed decimal.
 */

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

class Fraction {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint, d = 1n) {
    const g = gcd(n, d) || 1n;
    this.n = n / g;
    this.d = d / g;
  }
  plus(o: Fraction) {
    return new Fraction(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  minus(o: Fraction) {
    return new Fraction(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  times(o: Fraction) {
    return new Fraction(this.n * o.n, this.d * o.d);
  }
  over(o: Fraction) {
    return new Fraction(this.n * o.d, this.d * o.n);
  }
  atLeast(o: Fraction) {
    return this.n * o.d >= o.n * this.d;
  }
  /** Half up to `decimals` places (the values here are never negative). */
  round(decimals: number): number {
    const scale = 10n ** BigInt(decimals);
    return Number((this.n * scale * 2n + this.d) / (this.d * 2n)) / Number(scale);
  }
}
const ONE = new Fraction(1n);
const ZERO = new Fraction(0n);
const quarterPoints = (rate: number) => new Fraction(BigInt(Math.round(rate * 4)), 4n);

export interface Scope {
  county?: string[];
  tax_year?: number[];
  face_min?: number;
  face_max?: number;
  rate_min?: number;
  rate_max?: number;
}

/** June of the sale year is month 1; a day before June is month 0; capped at 84. */
function monthsFrom(saleDate: string, day: string): number {
  const months = (Number(day.slice(0, 4)) - Number(saleDate.slice(0, 4))) * 12 + Number(day.slice(5, 7)) - 5;
  return Math.min(84, Math.max(0, months));
}

export function cohortOf(rows: readonly CertificateRecord[], scope: Scope, asOf: string): CertificateRecord[] {
  return rows.filter(
    (r) =>
      !r.struck_to_county &&
      !['available', 'advertised', 'cancelled'].includes(r.status) &&
      r.sale_date !== null &&
      r.sale_date <= asOf &&
      (scope.county === undefined || scope.county.includes(r.county_slug)) &&
      (scope.tax_year === undefined || scope.tax_year.includes(r.tax_year)) &&
      (scope.face_min === undefined || r.face_amount >= scope.face_min) &&
      (scope.face_max === undefined || r.face_amount <= scope.face_max) &&
      (scope.rate_min === undefined || r.interest_rate >= scope.rate_min) &&
      (scope.rate_max === undefined || r.interest_rate <= scope.rate_max),
  );
}

export function independentCurve(cohort: readonly CertificateRecord[], asOf: string) {
  const times = cohort.map((r) => {
    const redeemed = r.redeemed_date !== null && r.redeemed_date <= asOf;
    return { month: monthsFrom(r.sale_date!, redeemed ? r.redeemed_date! : asOf), redeemed };
  });
  const survival: Fraction[] = [];
  const rows = [];
  let s = ONE;
  for (let k = 0; k <= 84; k++) {
    const atRisk = times.filter((t) => t.month >= k).length;
    const redeemed = times.filter((t) => t.month === k && t.redeemed).length;
    const censored = times.filter((t) => t.month === k && !t.redeemed).length;
    if (redeemed > 0) s = s.times(new Fraction(BigInt(atRisk - redeemed), BigInt(atRisk)));
    survival.push(s);
    rows.push({ months: k, at_risk: atRisk, redeemed, censored, survival: cohort.length === 0 ? null : s.round(6) });
  }
  const empty = cohort.length === 0;
  const median = survival.findIndex((v) => new Fraction(1n, 2n).atLeast(v));
  let observed: number | null = null;
  rows.forEach((r) => {
    if (r.at_risk > 0) observed = r.months;
  });
  return {
    survival,
    answer: {
      certificates: cohort.length,
      redeemed: times.filter((t) => t.redeemed).length,
      median_months: empty || median === -1 ? null : median,
      observed_through_months: observed,
      redeemed_share_by: [12, 24, 36, 60, 84].map((months) => ({
        months,
        share: empty ? null : ONE.minus(survival[months]!).round(6),
      })),
      curve: rows,
    },
  };
}

export function independentYield(
  cohort: readonly CertificateRecord[],
  survival: readonly Fraction[],
  horizon: number,
  rates: readonly number[],
  target: number | undefined,
) {
  const empty = cohort.length === 0;
  const f = (k: number) => (k === 0 ? ONE : survival[k - 1]!).minus(survival[k]!);
  let redeemedWithin = ZERO;
  for (let k = 0; k <= horizon; k++) redeemedWithin = redeemedWithin.plus(f(k));
  const share = (count: number) => (empty ? null : new Fraction(BigInt(count), BigInt(cohort.length)).round(4));
  const rows = rates.map((rate) => {
    const r = quarterPoints(rate);
    let sum = ZERO;
    for (let k = 1; k <= horizon && rate > 0; k++) {
      const K = new Fraction(BigInt(k));
      const accrued = r.times(K).over(new Fraction(12n));
      const charge = accrued.atLeast(new Fraction(5n)) ? accrued : new Fraction(5n);
      sum = sum.plus(f(k).times(charge.times(new Fraction(12n)).over(K)));
    }
    return {
      rate,
      expected_yield: empty || redeemedWithin.n === 0n ? null : sum.over(redeemedWithin).round(4),
      won_above: share(cohort.filter((c) => c.interest_rate > rate).length),
      won_at: share(cohort.filter((c) => c.interest_rate === rate).length),
    };
  });
  return {
    certificates: cohort.length,
    redeemed_within_horizon: empty ? null : redeemedWithin.round(6),
    rates: rows,
    lowest_rate_meeting_target:
      target === undefined ? null : (rows.find((r) => r.expected_yield !== null && r.expected_yield >= target)?.rate ?? null),
  };
}
