import { fraction4 } from '../bid-rates/rate-stats.ts';
import { MAX_MONTHS } from './params.ts';
import { roundRatio, type Survival } from './survival.ts';

/**
 * What a bid at rate r earns, given the curve (pure, exact):
 *  - f(k) = S(k-1) - S(k), the share redeemed at interest month k (S(-1) = 1);
 *  - y(r, k) = max(r k / 12, 5) x 12 / k percent a year, the statute's charge annualised: the
 *    accrued interest or the 5% minimum, whichever is more (s. 197.472(2)); which is max(r, 60 / k).
 *    0 for a 0% bid (it earns nothing) and for month 0 (no interest before June of the sale year);
 *  - the expected yield is the sum of f(k) y(r, k) over the sum of f(k), k = 0..H: the yield
 *    given a redemption within the horizon.
 * With S(k) = A_k / D, f(k) = (A_{k-1} - A_k) / D and y = max(4r k, 240) / (4k), so over the
 * common denominator 4 x lcm(1..84) x D every term is an integer and the division is done once.
 */

/** lcm(1..84): every 60 / k and r for k <= 84 is a multiple of 1 / (4 x LCM). */
const LCM = (() => {
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  let l = 1n;
  for (let k = 1n; k <= BigInt(MAX_MONTHS); k++) l = (l * k) / gcd(l, k);
  return l;
})();

export interface RateYield {
  rate: number;
  /** Percent a year, 4 decimals; null when nothing in the cohort redeemed within the horizon. */
  expected_yield: number | null;
  /** Shares of the cohort won above this rate and exactly at it, 4 decimals; null for an empty cohort. */
  won_above: number | null;
  won_at: number | null;
}

/** f(k) x D for k = 0..horizon, and their sum: what every rate's yield is weighed by. */
function redeemedAt(s: Survival, horizon: number): { f: bigint[]; total: bigint } {
  const f: bigint[] = [];
  for (let k = 0; k <= horizon; k++) f.push((k === 0 ? s.denominator : s.numerators[k - 1]!) - s.numerators[k]!);
  return { f, total: f.reduce((a, b) => a + b, 0n) };
}

function yieldOver({ f, total }: { f: bigint[]; total: bigint }, rate: number): number | null {
  if (total === 0n) return null;
  const quarters = BigInt(Math.round(rate * 4));
  if (quarters === 0n) return 0;
  let sum = 0n;
  for (let k = 1; k < f.length; k++) {
    const K = BigInt(k);
    const byQuarter = quarters * K > 240n ? quarters * K : 240n;
    sum += f[k]! * byQuarter * (LCM / K);
  }
  return roundRatio(sum, 4n * LCM * total, 4);
}

/** The expected yield of one rate, 4 decimals, or null when no redemption falls within the horizon. */
export function expectedYield(s: Survival, horizon: number, rate: number): number | null {
  return yieldOver(redeemedAt(s, horizon), rate);
}

/** Each rate's row: the expected yield and what a bid at that rate won at past sales. */
export function rateYields(
  s: Survival,
  horizon: number,
  rates: readonly number[],
  won: readonly { rate: number; certificates: number }[],
): RateYield[] {
  const count = (test: (r: number) => boolean) => won.reduce((n, b) => (test(b.rate) ? n + b.certificates : n), 0);
  const weights = redeemedAt(s, horizon);
  return rates.map((rate) => ({
    rate,
    expected_yield: yieldOver(weights, rate),
    won_above: fraction4(
      count((r) => r > rate),
      s.certificates,
    ),
    won_at: fraction4(
      count((r) => r === rate),
      s.certificates,
    ),
  }));
}

/** The least rate whose expected yield, as answered, is at least the target. */
export function lowestRateMeeting(rows: readonly RateYield[], target: number): number | null {
  return rows.find((r) => r.expected_yield !== null && r.expected_yield >= target)?.rate ?? null;
}
