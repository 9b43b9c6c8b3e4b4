import type { City, CountyProfile } from './counties.ts';
import { formatStr, type Str } from './places.ts';
import type { Prng } from './prng.ts';
import {
  COMPANY_KINDS,
  COMPANY_SUFFIXES,
  COMPANY_WORDS,
  GIVEN_NAMES,
  MIDDLE_INITIALS,
  ordinal,
  SUBDIVISION_KINDS,
  SUBDIVISION_WORDS,
  SURNAMES,
} from './words.ts';

/**
 * A parcel is a pure function of (county, parcel index, seed): the generator
 * re-derives it whenever a certificate lands on it, so the same parcel shows the
 * same owner, address and legal text in every tax year without being stored.
 */

export type ParcelKind = 'house' | 'condo' | 'vacant' | 'commercial' | 'common_area';

export interface Parcel {
  parcelId: string;
  kind: ParcelKind;
  /** The town it lies in (its address names it). */
  city: City;
  owner: string;
  address: string;
  legal: string | null;
  /** The section-township-range the parcel lies in (encoded in its id where the county does that). */
  str: Str;
  zip: number;
  /** Delinquent tax of the first modelled year, in cents. */
  baseTaxCents: number;
}

/** Cumulative weights for picking a city in one multiplication and a short scan. */
export function cityTable(profile: CountyProfile): { cities: readonly City[]; cumulative: number[] } {
  let sum = 0;
  const cumulative = profile.cities.map((c) => {
    sum += c.weight;
    return sum;
  });
  return { cities: profile.cities, cumulative: cumulative.map((c) => c / sum) };
}

function pickCity(table: ReturnType<typeof cityTable>, rng: Prng): City {
  const u = rng.next();
  const i = table.cumulative.findIndex((c) => u < c);
  return table.cities[i === -1 ? table.cities.length - 1 : i] as City;
}

function personName(rng: Prng): string {
  const initial = rng.chance(0.55) ? ` ${MIDDLE_INITIALS[rng.int(MIDDLE_INITIALS.length)]}` : '';
  return `${rng.pickSkewed(SURNAMES, 1.6)} ${rng.pickSkewed(GIVEN_NAMES, 1.5)}${initial}`;
}

export function ownerName(rng: Prng): string {
  const u = rng.next();
  if (u < 0.45) return personName(rng);
  if (u < 0.65) {
    const surname = rng.pickSkewed(SURNAMES, 1.6);
    return `${surname} ${rng.pick(GIVEN_NAMES)} & ${rng.pick(GIVEN_NAMES)}${rng.chance(0.3) ? ` ${MIDDLE_INITIALS[rng.int(MIDDLE_INITIALS.length)]}` : ''}`;
  }
  if (u < 0.73) {
    const surname = rng.pickSkewed(SURNAMES, 1.6);
    return rng.chance(0.5) ? `${surname} FAMILY TRUST` : `${rng.pick(GIVEN_NAMES)} ${surname} REV TR`;
  }
  if (u < 0.88)
    return `${rng.pick(COMPANY_WORDS)} ${rng.pick(COMPANY_KINDS)}${rng.chance(0.3) ? ` ${rng.between(1, 40)}` : ''} ${rng.pick(COMPANY_SUFFIXES)}`;
  if (u < 0.95) return rng.chance(0.5) ? `EST OF ${personName(rng)}` : `${personName(rng)} EST`;
  return `${personName(rng)} & ${personName(rng)}`;
}

function subdivision(profile: CountyProfile, rng: Prng): string {
  if (rng.chance(0.5)) return rng.pick(profile.subdivisions);
  const name = `${rng.pick(SUBDIVISION_WORDS)} ${rng.pick(SUBDIVISION_KINDS)}`;
  const u = rng.next();
  if (u < 0.2) return `${name} ${ordinal(rng.between(1, 6))} ADD`;
  if (u < 0.35) return `${name} SEC ${rng.between(1, 9)}`;
  if (u < 0.45) return `${name} UNIT ${rng.between(1, 12)}`;
  return name;
}

function plat(rng: Prng): string {
  return `PB ${rng.between(1, 180)}-${rng.between(1, 99)}`;
}

function legalDescription(kind: ParcelKind, profile: CountyProfile, str: Str, rng: Prng): string | null {
  if (rng.chance(0.03)) return null;
  const sub = subdivision(profile, rng);
  const lot = rng.between(1, 60);
  const blk = rng.between(1, 40);
  switch (kind) {
    case 'condo':
      return `${sub} CONDO UNIT ${rng.between(101, 1520)}${rng.chance(0.4) ? ` BLDG ${rng.between(1, 12)}` : ''}\nUNDIV ${(rng.between(10, 400) / 100).toFixed(2)}% INT IN COMMON ELEMENTS\nOR ${rng.between(9000, 34000)}-${rng.between(1, 4999)}`;
    case 'vacant':
      if (rng.chance(0.5))
        // Metes and bounds start from the parcel's own section (the one its id encodes, if any).
        return `${formatStr(str)} ${(rng.between(10, 500) / 100).toFixed(2)} AC M/L\nBEG ${rng.between(25, 660)}FT N OF SW COR OF SE1/4, TH E ${rng.between(50, 330)}FT, N ${rng.between(50, 330)}FT, W TO POB`;
      return `${sub} ${plat(rng)} LOT ${lot} BLK ${blk}`;
    case 'common_area':
      return rng.chance(0.5)
        ? `TRACT ${'ABCDEFG'[rng.int(7)]} ${sub} ${plat(rng)} (COMMON AREA)`
        : `${sub} ${plat(rng)}\nDRAINAGE & LAKE MAINT EASEMENT TRACT ${rng.between(1, 9)}`;
    case 'commercial':
      return `${sub} ${plat(rng)} LOTS ${lot} THRU ${lot + rng.between(1, 4)} BLK ${blk}, LESS R/W`;
    default: {
      const u = rng.next();
      if (u < 0.4) return `LOT ${lot} BLK ${blk} ${sub} ${plat(rng)}`;
      if (u < 0.6) return `${sub} ${plat(rng)} LOT ${lot} BLK ${blk} LOT SIZE ${rng.between(40, 100)}.000 X ${rng.between(90, 150)}`;
      if (u < 0.85)
        return `${rng.pick(['W', 'E', 'N', 'S'])} ${rng.between(20, 60)}FT OF LOT ${lot}, ALL OF LOT ${lot + 1}, BLK ${blk}, ${sub}, ${plat(rng)}`;
      return `${sub}\n${plat(rng)}\nLOT ${lot} BLK ${blk}`;
    }
  }
}

const MAX_ADDRESS = 60;

const KIND_TAX_FACTOR: Record<ParcelKind, number> = { house: 1, condo: 0.8, vacant: 0.3, commercial: 4, common_area: 0.08 };

function parcelKind(rng: Prng): ParcelKind {
  const u = rng.next();
  if (u < 0.58) return 'house';
  if (u < 0.74) return 'condo';
  if (u < 0.89) return 'vacant';
  if (u < 0.95) return 'commercial';
  return 'common_area';
}

/**
 * Delinquent tax in cents: mostly a few hundred to a few thousand dollars, with
 * a heavy tail (commercial parcels, estates) into six figures.
 */
function baseTaxCents(kind: ParcelKind, rng: Prng): number {
  const heavy = rng.chance(0.03);
  const median = heavy ? 9000 : 950;
  const sigma = heavy ? 1.2 : 0.8;
  const dollars = median * Math.exp(sigma * rng.normal()) * KIND_TAX_FACTOR[kind];
  return Math.round(Math.min(Math.max(dollars, 18), 400_000) * 100);
}

export function buildParcel(profile: CountyProfile, cities: ReturnType<typeof cityTable>, scrambled: number, rng: Prng): Parcel {
  const kind = parcelKind(rng);
  const city = pickCity(cities, rng);
  const zip = city.zips[rng.int(city.zips.length)]!;
  const str = profile.str(scrambled, city, rng);
  const parcelId = profile.parcelId(scrambled, city, str, rng);
  const owner = ownerName(rng);
  const top = profile.places.maxHouseNumber;
  const number = kind === 'vacant' || kind === 'common_area' ? (rng.chance(0.4) ? 0 : rng.between(100, top)) : rng.between(100, top);
  const unit = kind === 'condo' ? ` UNIT ${rng.between(101, 1520)}` : '';
  // Portals keep 60 characters of an address (taxgavel's fixed width): draw another street if it does not fit.
  let address = `${number} ${profile.places.street(rng)}${unit}, ${city.name}, FL ${zip}`;
  for (let tries = 0; address.length > MAX_ADDRESS && tries < 4; tries++)
    address = `${number} ${profile.places.street(rng)}${unit}, ${city.name}, FL ${zip}`;
  if (address.length > MAX_ADDRESS) address = `${number} ${profile.places.street(rng)}, ${city.name}, FL ${zip}`;
  return {
    parcelId,
    kind,
    city,
    owner,
    address,
    legal: legalDescription(kind, profile, str, rng),
    str,
    zip,
    baseTaxCents: baseTaxCents(kind, rng),
  };
}
