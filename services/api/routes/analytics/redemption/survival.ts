import type { CohortCounts } from './counts.ts';

/**
 * Kaplan-Meier over interest months, exact (pure). S(k) is the product over j <= k of
 * (1 - d_j / n_j); it is kept as integers over one common denominator, so every figure the
 * answers print (6 decimals of S, 4 of a yield) is rounded once from the exact value and never
 * depends on the order floating-point arithmetic ran in.
 *
 * A month with nobody at risk has no redemption either and leaves S as it was (the product
 * runs over the months with redemptions); the curve's at_risk column shows where the data
 * ends, and observed_through_months names that month.
 */

export interface Survival {
  certificates: number;
  /** n_k: the cohort less the redemptions and censorings before month k. */
  atRisk: number[];
  redeemed: number[];
  censored: number[];
  /** S(k) = numerators[k] / denominator, k = 0..84. */
  numerators: bigint[];
  denominator: bigint;
}

export function kaplanMeier(c: CohortCounts): Survival {
  const months = c.redeemed.length;
  const atRisk: number[] = [];
  let n = c.certificates;
  for (let k = 0; k < months; k++) {
    atRisk.push(n);
    n -= c.redeemed[k]! + c.censored[k]!;
  }
  if (n !== 0) throw new RangeError(`the months hold ${c.certificates - n} of ${c.certificates} certificates`);
  // denominator = the product of n_j over months with a redemption; S(k)'s numerator is the
  // product of (n_j - d_j) up to k times the product of n_j after k.
  const factors = atRisk.map((nk, k) => (c.redeemed[k]! > 0 ? { n: BigInt(nk), survived: BigInt(nk - c.redeemed[k]!) } : null));
  const after = new Array<bigint>(months + 1).fill(1n);
  for (let k = months - 1; k >= 0; k--) after[k] = after[k + 1]! * (factors[k]?.n ?? 1n);
  const numerators: bigint[] = [];
  let survivedSoFar = 1n;
  for (let k = 0; k < months; k++) {
    survivedSoFar *= factors[k]?.survived ?? 1n;
    numerators.push(survivedSoFar * after[k + 1]!);
  }
  return { certificates: c.certificates, atRisk, redeemed: c.redeemed, censored: c.censored, numerators, denominator: after[0]! };
}

/** a / b rounded half up to `decimals` places, for 0 <= a and b > 0. */
export function roundRatio(a: bigint, b: bigint, decimals: number): number {
  const scale = 10n ** BigInt(decimals);
  return Number((2n * a * scale + b) / (2n * b)) / Number(scale);
}

/** S(k) to 6 decimals; null for an empty cohort. */
export function survivalAt(s: Survival, k: number): number | null {
  return s.certificates === 0 ? null : roundRatio(s.numerators[k]!, s.denominator, 6);
}

/** 1 - S(k) to 6 decimals, rounded from the exact value; null for an empty cohort. */
export function redeemedBy(s: Survival, k: number): number | null {
  return s.certificates === 0 ? null : roundRatio(s.denominator - s.numerators[k]!, s.denominator, 6);
}

/** The least month with S(k) <= 0.5, or null when the curve never gets there. */
export function medianMonths(s: Survival): number | null {
  if (s.certificates === 0) return null;
  const k = s.numerators.findIndex((a) => 2n * a <= s.denominator);
  return k === -1 ? null : k;
}

/** The last month with someone at risk: beyond it the curve holds no data. */
export function observedThrough(s: Survival): number | null {
  for (let k = s.atRisk.length - 1; k >= 0; k--) if (s.atRisk[k]! > 0) return k;
  return null;
}
