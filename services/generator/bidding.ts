import { MAX_INTEREST_RATE } from '../domain/records.ts';
import { RATE_LADDER, type SaleTargets, ZERO_SHARE } from './market.ts';
import type { Prng } from './prng.ts';
import { GIVEN_NAMES, HOLDER_FAMILIES, IRA_CUSTODIANS, MIDDLE_INITIALS, SURNAMES, VINTAGE_BUYING_YEARS } from './words.ts';

/**
 * Who wins a certificate and at what rate. Bidding opens at 18 percent and goes
 * down in quarter points; big certificates draw institutional funds that bid
 * down to 0.25 (the 5 percent mandatory charge still pays them) or even 0,
 * while small ones go to individuals at higher rates or find no bidder at all.
 * How many clear at 0.25% and how many are struck is calibrated per county and
 * sale year against published sale statistics (market.ts).
 */

export const MAX_HOLDER_NAME = 60;

/** The institutional entities bidding at one year's sale, with cumulative weights for one-draw picks. */
export interface Institutions {
  names: string[];
  cumulative: number[];
}

/**
 * Entities of every fund family that exist and buy at the sale held in `saleYear`:
 * all numbered entities, and each vintage fund from its vintage year for
 * VINTAGE_BUYING_YEARS years, the newest vintage taking the largest part.
 */
export function institutionsBuyingIn(saleYear: number): Institutions {
  const names: string[] = [];
  const weights: number[] = [];
  for (const family of HOLDER_FAMILIES) {
    if (family.vintages) {
      const active = family.vintages.filter((v) => v <= saleYear && saleYear < v + VINTAGE_BUYING_YEARS).sort((a, b) => b - a);
      const parts = active.map((_, i) => active.length - i);
      const total = parts.reduce((a, b) => a + b, 0);
      active.forEach((v, i) => {
        names.push(family.pattern.replace('#', String(v)));
        weights.push((family.weight * parts[i]!) / total);
      });
    } else if (family.numbers) {
      for (const n of family.numbers) {
        names.push(family.pattern.replace('#', String(n)));
        weights.push(family.weight / family.numbers.length);
      }
    } else {
      names.push(family.pattern);
      weights.push(family.weight);
    }
  }
  let sum = 0;
  const running = weights.map((w) => (sum += w));
  return { names, cumulative: running.map((c) => c / sum) };
}

function pickInstitution(institutions: Institutions, rng: Prng): string {
  const u = rng.next();
  const { names, cumulative } = institutions;
  let i = 0;
  while (i < cumulative.length - 1 && u >= cumulative[i]!) i++;
  return names[i]!;
}

/** A county's local individual bidders; names are fixed per pool so each is always spelled the same. */
export function individualBidders(rng: Prng, size: number): string[] {
  const names = new Set<string>();
  for (let guard = 0; names.size < size && guard < size * 20; guard++) {
    const person = `${rng.pick(SURNAMES)} ${rng.pick(GIVEN_NAMES)}${rng.chance(0.6) ? ` ${MIDDLE_INITIALS[rng.int(MIDDLE_INITIALS.length)]}` : ''}`;
    const ira = rng.chance(0.12) ? `${rng.pick(IRA_CUSTODIANS)} FBO ${person} IRA` : person;
    // Portals keep 60 characters of a holder name (taxgavel's fixed width is the tightest).
    names.add(ira.length <= MAX_HOLDER_NAME ? ira : person);
  }
  return [...names];
}

/**
 * How much likelier than the county-year's struck share a certificate of this size is to
 * find no bidder: struck certificates are the small ones (Hillsborough's mean struck face is
 * $140-790 against $2,200-3,600 sold, market.ts) and common areas no one wants. The factors
 * average about 1 over the generated face distribution, so the county-year share holds.
 */
export function struckFactor(faceCents: number, unattractive: boolean): number {
  if (unattractive) return 9;
  if (faceCents < 25_000) return 3.2;
  if (faceCents < 50_000) return 1.6;
  if (faceCents < 150_000) return 0.45;
  return 0.12;
}

export function struckChance(faceCents: number, unattractive: boolean, targets: SaleTargets): number {
  return Math.min(0.9, targets.struck * struckFactor(faceCents, unattractive));
}

export interface Bid {
  holder: string;
  rate: number;
  institutional: boolean;
}

export interface Bidders {
  institutions: Institutions;
  individuals: readonly string[];
  targets: SaleTargets;
}

/**
 * Smaller certificates clear above 0.25% more often: the 5% minimum is worth little on
 * them to a fund, and individuals bid there (market.ts). Offsets on the county-year's
 * 0.25% share, roughly balancing over the face distribution.
 */
function quarterOffset(dollars: number): number {
  if (dollars < 300) return -0.15;
  if (dollars < 800) return -0.03;
  if (dollars < 3000) return 0.03;
  return 0.09;
}

function ladderRate(rng: Prng): number {
  let u = rng.next() * LADDER_TOTAL;
  for (const [rate, weight] of RATE_LADDER) {
    u -= weight;
    if (u < 0) return rate;
  }
  return RATE_LADDER[RATE_LADDER.length - 1]![0];
}
const LADDER_TOTAL = RATE_LADDER.reduce((a, [, w]) => a + w, 0);

/**
 * The winning bid on a certificate someone bid on. Institutions, bidding through
 * their numbered entities, win nearly every certificate that clears at 0.25%
 * (ties at the floor are drawn at random among hundreds of bids); individuals
 * win most of the rest, at the higher rates.
 */
export function winningBid(faceCents: number, bidders: Bidders, rng: Prng): Bid {
  const dollars = faceCents / 100;
  const u = rng.next();
  let rate: number;
  if (u < ZERO_SHARE) rate = 0;
  else if (u < ZERO_SHARE + bidders.targets.eighteen) rate = MAX_INTEREST_RATE;
  else rate = rng.chance(bidders.targets.quarter + quarterOffset(dollars)) ? 0.25 : ladderRate(rng);
  const institutional = rng.chance(rate === 0.25 ? bidders.targets.institutionalQuarter : rate === 0 ? 0.6 : 0.25);
  const holder = institutional ? pickInstitution(bidders.institutions, rng) : rng.pickSkewed(bidders.individuals, 1.4);
  return { holder, rate, institutional };
}
