import type { Prng } from './prng.ts';
import { GIVEN_NAMES, HOLDER_FAMILIES, IRA_CUSTODIANS, MIDDLE_INITIALS, SURNAMES, VINTAGE_BUYING_YEARS } from './words.ts';

/**
 * Who wins a certificate and at what rate. Bidding opens at 18 percent and goes
 * down in quarter points; big certificates draw institutional funds that bid
 * down to 0.25 (the 5 percent mandatory charge still pays them) or even 0,
 * while small ones go to individuals near 18 or find no bidder at all. In the
 * large counties we model, institutions and their numbered entities win the
 * great majority of certificates (the county's institutionalShare).
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

/** Probability that no one bids: tiny and unattractive parcels are struck to the county. */
export function struckChance(faceCents: number, unattractive: boolean): number {
  if (unattractive) return 0.75;
  if (faceCents < 25_000) return 0.5;
  if (faceCents < 50_000) return 0.15;
  return 0.025;
}

export interface Bid {
  holder: string;
  rate: number;
}

export interface Bidders {
  /** Share of certificates institutions win in this county (before the size adjustment). */
  institutionalShare: number;
  institutions: Institutions;
  individuals: readonly string[];
}

export function winningBid(faceCents: number, bidders: Bidders, rng: Prng): Bid {
  const dollars = faceCents / 100;
  // Individuals find their room on the small certificates; the large ones all go to funds.
  const share = bidders.institutionalShare + (dollars > 5000 ? 0.08 : dollars > 1500 ? 0.04 : dollars > 500 ? 0 : -0.1);
  const institutional = rng.chance(share);
  const holder = institutional ? pickInstitution(bidders.institutions, rng) : rng.pickSkewed(bidders.individuals, 1.4);
  if (institutional && rng.chance(0.04)) return { holder, rate: 0 };
  if (dollars < 600 && rng.chance(institutional ? 0.1 : 0.3)) return { holder, rate: 18 };
  // More competition on bigger certificates pushes the rate toward the floor.
  const competition = dollars > 5000 ? 7 : dollars > 1500 ? 4.5 : dollars > 600 ? 2.5 : 1.3;
  const quarters = Math.max(1, Math.ceil(rng.next() ** competition * 72));
  return { holder, rate: quarters / 4 };
}
