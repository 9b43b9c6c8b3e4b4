import type { Prng } from './prng.ts';
import { CUSTODIAN_HOLDERS, GIVEN_NAMES, INSTITUTIONAL_HOLDERS, IRA_CUSTODIANS, MIDDLE_INITIALS, SURNAMES } from './words.ts';

/**
 * Who wins a certificate and at what rate. Bidding opens at 18 percent and goes
 * down in quarter points; big certificates draw institutional funds that bid
 * down to 0.25 (the 5 percent mandatory charge still pays them) or even 0,
 * while small ones go to individuals near 18 or find no bidder at all.
 */

export const MAX_HOLDER_NAME = 60;

const INSTITUTIONS: readonly string[] = [...INSTITUTIONAL_HOLDERS, ...CUSTODIAN_HOLDERS];

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

export function winningBid(faceCents: number, individuals: readonly string[], rng: Prng): Bid {
  const dollars = faceCents / 100;
  const institutionalShare = dollars > 5000 ? 0.85 : dollars > 1500 ? 0.7 : dollars > 500 ? 0.5 : 0.3;
  const institutional = rng.chance(institutionalShare);
  const holder = institutional ? rng.pickSkewed(INSTITUTIONS, 1.7) : rng.pickSkewed(individuals, 1.4);
  if (institutional && rng.chance(0.04)) return { holder, rate: 0 };
  if (dollars < 600 && rng.chance(institutional ? 0.1 : 0.3)) return { holder, rate: 18 };
  // More competition on bigger certificates pushes the rate toward the floor.
  const competition = dollars > 5000 ? 7 : dollars > 1500 ? 4.5 : dollars > 600 ? 2.5 : 1.3;
  const quarters = Math.max(1, Math.ceil(rng.next() ** competition * 72));
  return { holder, rate: quarters / 4 };
}
