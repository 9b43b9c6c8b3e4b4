/**
 * Statistics of winning rates from exact per-rate counts (pure). Every figure is
 * computed in integers and rounded once, so nothing depends on floating-point
 * summation order:
 *  - a rate is carried in ten-thousandths of a percent (quarter points, and any
 *    rate with at most 4 decimals, convert exactly);
 *  - face amounts are integer cents;
 *  - a mean or share is one integer division rounded half up to 4 decimals
 *    (BigInt: a face-weighted numerator, rate x cents over a million certificates,
 *    passes 2^53).
 */

export interface RateCount {
  /** The winning rate, percent per year. */
  rate: number;
  certificates: number;
  /** Face amount of those certificates in integer cents. */
  faceCents: number;
}

const SCALE = 10_000;

/** a / b rounded half up, for a >= 0 and b > 0. */
function roundDiv(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/** part / whole as a fraction with 4 decimals, half up; null when whole is 0. */
export function fraction4(part: number, whole: number): number | null {
  if (whole === 0) return null;
  return Number(roundDiv(BigInt(part) * BigInt(SCALE), BigInt(whole))) / SCALE;
}

/** The rank of percentile p (1-100) among n values by nearest rank: ceil(p / 100 x n), at least 1. */
export function nearestRank(percent: number, n: number): number {
  return Math.max(1, Math.ceil((percent * n) / 100));
}

/** The rate at a 1-based rank of the ascending order the counts describe. */
export function rateAtRank(ascending: readonly RateCount[], rank: number): number {
  let seen = 0;
  for (const bucket of ascending) {
    seen += bucket.certificates;
    if (seen >= rank) return bucket.rate;
  }
  throw new RangeError(`rank ${rank} is beyond the ${seen} certificates counted`);
}

/** Per-rate counts merged and sorted ascending by rate (one row per distinct rate). */
export function mergeRates(parts: readonly (readonly RateCount[])[]): RateCount[] {
  const byRate = new Map<number, RateCount>();
  for (const part of parts)
    for (const b of part) {
      const row = byRate.get(b.rate) ?? { rate: b.rate, certificates: 0, faceCents: 0 };
      row.certificates += b.certificates;
      row.faceCents += b.faceCents;
      byRate.set(b.rate, row);
    }
  return [...byRate.values()].sort((a, b) => a.rate - b.rate);
}

export interface RateSummary {
  certificates: number;
  faceCents: number;
  rate: {
    min: number | null;
    p25: number | null;
    median: number | null;
    p75: number | null;
    max: number | null;
    mean: number | null;
    face_weighted_mean: number | null;
  };
  shares: {
    zero: number | null;
    quarter: number | null;
    at_or_below_1: number | null;
    above_5: number | null;
    at_18: number | null;
  };
}

const units = (rate: number) => BigInt(Math.round(rate * SCALE));

/** The summary of one set of certificates given as ascending per-rate counts. */
export function summarizeRates(ascending: readonly RateCount[]): RateSummary {
  const n = ascending.reduce((sum, b) => sum + b.certificates, 0);
  const faceCents = ascending.reduce((sum, b) => sum + b.faceCents, 0);
  const count = (test: (rate: number) => boolean) =>
    fraction4(
      ascending.reduce((sum, b) => (test(b.rate) ? sum + b.certificates : sum), 0),
      n,
    );
  const at = (percent: number) => (n === 0 ? null : rateAtRank(ascending, nearestRank(percent, n)));
  const rateSum = ascending.reduce((sum, b) => sum + units(b.rate) * BigInt(b.certificates), 0n);
  const weightedSum = ascending.reduce((sum, b) => sum + units(b.rate) * BigInt(b.faceCents), 0n);
  return {
    certificates: n,
    faceCents,
    rate: {
      min: n === 0 ? null : at(0),
      p25: at(25),
      median: at(50),
      p75: at(75),
      max: n === 0 ? null : at(100),
      mean: n === 0 ? null : Number(roundDiv(rateSum, BigInt(n))) / SCALE,
      face_weighted_mean: faceCents === 0 ? null : Number(roundDiv(weightedSum, BigInt(faceCents))) / SCALE,
    },
    shares: {
      zero: count((r) => r === 0),
      quarter: count((r) => r === 0.25),
      at_or_below_1: count((r) => r <= 1),
      above_5: count((r) => r > 5),
      at_18: count((r) => r === 18),
    },
  };
}
