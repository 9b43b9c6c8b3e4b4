import type { Prng } from './prng.ts';
import { ordinal } from './words.ts';

/**
 * Geography as data, one entry per modelled county: the ZIP codes that lie in the
 * county (USPS, as ranges; a city table may only use these), the public land
 * survey box its sections fall in, and how its streets are named, so an address
 * reads as that county's: Miami-style quadrant grids belong to Miami-Dade and
 * Broward only; Tampa numbers with a one-letter prefix (N 15TH ST), St.
 * Petersburg puts the direction last (38TH AVE N), Orlando and Jacksonville
 * mostly name streets.
 */

/** Section, township (south) and range (east) of the public land survey. */
export interface Str {
  section: number;
  township: number;
  range: number;
}

export interface CountyPlaces {
  /** ZIP codes of the county: single codes or inclusive [from, to] runs of codes in the county. */
  zips: readonly (number | readonly [number, number])[];
  /** Townships and ranges the county's sections fall in (inclusive). */
  townships: readonly [number, number];
  ranges: readonly [number, number];
  /** Highest house number in use. */
  maxHouseNumber: number;
  street(rng: Prng): string;
}

const pickType = (rng: Prng, types: readonly string[]) => types[rng.int(types.length)]!;

/** `${prefix} ${name}` where the name list already carries its suffix (FLAGLER ST, CORAL WAY). */
function named(rng: Prng, names: readonly string[], prefixes: readonly string[], prefixChance: number): string {
  const name = rng.pickSkewed(names, 1.3);
  return rng.chance(prefixChance) ? `${rng.pick(prefixes)} ${name}` : name;
}

const QUADRANT = ['NW', 'SW', 'NE', 'SE'] as const;
const COMPASS = ['N', 'S', 'E', 'W'] as const;

export const COUNTY_PLACES: Readonly<Record<string, CountyPlaces>> = {
  'miami-dade': {
    zips: [[33010, 33018], [33030, 33035], 33039, [33054, 33056], [33101, 33199]],
    townships: [51, 59],
    ranges: [35, 42],
    maxHouseNumber: 29999,
    // The county grid: NW 27TH AVE, SW 152ND ST, with quadrant first.
    street: (rng) =>
      rng.chance(0.82)
        ? `${QUADRANT[Math.floor(rng.next() ** 1.6 * 4)]} ${ordinal(rng.between(1, 240))} ${pickType(rng, ['ST', 'AVE', 'CT', 'TER', 'PL', 'RD', 'DR', 'LN'])}`
        : named(
            rng,
            [
              'FLAGLER ST',
              'CORAL WAY',
              'BISCAYNE BLVD',
              'BIRD RD',
              'MIRACLE MILE',
              'COLLINS AVE',
              'ALTON RD',
              'PALM AVE',
              'OKEECHOBEE RD',
              'KROME AVE',
              'OLD CUTLER RD',
              'SUNSET DR',
              'RED RD',
              'GRAND AVE',
              'HARDING AVE',
            ],
            [],
            0,
          ),
  },
  broward: {
    zips: [33004, 33009, [33019, 33029], [33060, 33077], [33081, 33084], [33301, 33340], [33345, 33355], 33388, 33394, [33441, 33443]],
    townships: [47, 51],
    ranges: [39, 43],
    maxHouseNumber: 19999,
    // Fort Lauderdale's quadrant grid (NW 31ST AVE) beside named streets.
    street: (rng) =>
      rng.chance(0.6)
        ? `${QUADRANT[rng.int(4)]} ${ordinal(rng.between(1, 136))} ${pickType(rng, ['ST', 'AVE', 'CT', 'TER', 'PL', 'WAY', 'DR'])}`
        : named(
            rng,
            [
              'LAS OLAS BLVD',
              'SUNRISE BLVD',
              'OAKLAND PARK BLVD',
              'COMMERCIAL BLVD',
              'HOLLYWOOD BLVD',
              'JOHNSON ST',
              'TAFT ST',
              'PINES BLVD',
              'ATLANTIC BLVD',
              'SAMPLE RD',
              'UNIVERSITY DR',
              'POWERLINE RD',
              'DIXIE HWY',
              'FEDERAL HWY',
              'RIVERLAND RD',
            ],
            COMPASS,
            0.25,
          ),
  },
  hillsborough: {
    zips: [
      33503,
      [33508, 33511],
      33527,
      33530,
      33534,
      [33547, 33550],
      33556,
      33558,
      [33563, 33573],
      33575,
      33578,
      33579,
      33583,
      33584,
      33586,
      33587,
      33592,
      [33594, 33596],
      33598,
      [33601, 33694],
    ],
    townships: [27, 32],
    ranges: [17, 22],
    maxHouseNumber: 19999,
    // Tampa numbers its streets behind a one-letter direction (N 15TH ST, E 21ST AVE).
    street: (rng) =>
      rng.chance(0.4)
        ? `${rng.pick(COMPASS)} ${ordinal(rng.between(1, 56))} ${pickType(rng, ['ST', 'AVE'])}`
        : named(
            rng,
            [
              'FLORIDA AVE',
              'NEBRASKA AVE',
              'HILLSBOROUGH AVE',
              'KENNEDY BLVD',
              'BUSCH BLVD',
              'DALE MABRY HWY',
              'ARMENIA AVE',
              'HOWARD AVE',
              'COLUMBUS DR',
              'SLIGH AVE',
              'WATERS AVE',
              'BAY TO BAY BLVD',
              'LUMSDEN RD',
              'BLOOMINGDALE AVE',
              'BOYETTE RD',
              'BRUCE B DOWNS BLVD',
            ],
            COMPASS,
            0.45,
          ),
  },
  orange: {
    zips: [32703, 32709, 32712, 32751, 32789, 32792, 32798, [32801, 32839], 34734, 34740, 34760, 34761, 34777, 34786, 34787],
    townships: [20, 24],
    ranges: [27, 33],
    maxHouseNumber: 19999,
    // Orlando names its streets; a direction prefix on the long ones (N ORANGE AVE).
    street: (rng) =>
      rng.chance(0.06)
        ? `${rng.pick(COMPASS)} ${ordinal(rng.between(1, 40))} ST`
        : named(
            rng,
            [
              'ORANGE AVE',
              'COLONIAL DR',
              'SEMORAN BLVD',
              'KIRKMAN RD',
              'MILLS AVE',
              'CONWAY RD',
              'PINE HILLS RD',
              'OAK RIDGE RD',
              'CURRY FORD RD',
              'HIAWASSEE RD',
              'LAKE UNDERHILL RD',
              'VINELAND RD',
              'GOLDENROD RD',
              'PRINCETON ST',
              'WASHINGTON ST',
              'LAKEMONT AVE',
              'DAMON RD',
              'RIO GRANDE AVE',
            ],
            COMPASS,
            0.35,
          ),
  },
  pinellas: {
    zips: [[33701, 33716], [33729, 33786], 34677, [34681, 34685], [34688, 34698]],
    townships: [27, 31],
    ranges: [14, 16],
    maxHouseNumber: 9999,
    // St. Petersburg puts the direction after the number (38TH AVE N, 4TH ST S).
    street: (rng) =>
      rng.chance(0.55)
        ? `${ordinal(rng.between(1, 125))} ${pickType(rng, ['AVE', 'ST', 'TER', 'WAY', 'LN'])} ${rng.pick(['N', 'S', 'NE', 'NW', 'SE', 'SW'])}`
        : named(
            rng,
            [
              'GULF BLVD',
              'ULMERTON RD',
              'GULF TO BAY BLVD',
              'MISSOURI AVE',
              'BELCHER RD',
              'SEMINOLE BLVD',
              'PARK BLVD',
              'TYRONE BLVD',
              'DR M L KING JR ST',
              'CENTRAL AVE',
              'EAST BAY DR',
              'KEENE RD',
              'ALT 19',
              'CURLEW RD',
            ],
            COMPASS,
            0.15,
          ),
  },
  duval: {
    zips: [32099, [32201, 32212], [32214, 32241], [32244, 32247], [32250, 32258], [32266, 32267], [32277, 32277], 32290],
    townships: [1, 4],
    ranges: [25, 29],
    maxHouseNumber: 14999,
    // Jacksonville names its streets; numbered ones run east-west behind a letter (W 45TH ST).
    street: (rng) =>
      rng.chance(0.1)
        ? `${rng.pick(['E', 'W'])} ${ordinal(rng.between(1, 65))} ST`
        : named(
            rng,
            [
              'MAIN ST',
              'BEACH BLVD',
              'ATLANTIC BLVD',
              'UNIVERSITY BLVD',
              'NORMANDY BLVD',
              'EDGEWOOD AVE',
              'MONCRIEF RD',
              'LEM TURNER RD',
              'SAN JOSE BLVD',
              'ARLINGTON RD',
              'BLANDING BLVD',
              'SOUTEL DR',
              'KINGS RD',
              'PEARL ST',
              'HERSCHEL ST',
              'MERRILL RD',
              'OLD MIDDLEBURG RD',
            ],
            COMPASS,
            0.15,
          ),
  },
  // Panhandle counties of the Tallahassee meridian: townships south and ranges west.
  franklin: {
    zips: [32320, 32322, 32328, 32346],
    townships: [5, 9],
    ranges: [1, 8],
    maxHouseNumber: 2999,
    // Small towns on US 98: numbered streets and avenues with letters, county roads.
    street: (rng) =>
      rng.chance(0.3)
        ? `${rng.chance(0.5) ? `AVE ${'ABCDEFGHIJKLMN'[rng.int(14)]}` : `${ordinal(rng.between(1, 26))} ST`}`
        : named(
            rng,
            [
              'HWY 98',
              'US HWY 98',
              'BAY SHORE DR',
              'GULF BEACH DR',
              'CR 67',
              'BLUFF RD',
              'ISLAND DR',
              'MARKET ST',
              'WATER ST',
              'OLD FERRY DOCK RD',
              'PATTON DR',
              'ALLIGATOR DR',
            ],
            COMPASS,
            0.1,
          ),
  },
  gulf: {
    zips: [32456, 32465],
    townships: [3, 9],
    ranges: [8, 11],
    maxHouseNumber: 9999,
    street: (rng) =>
      rng.chance(0.2)
        ? `${ordinal(rng.between(1, 30))} ST`
        : named(
            rng,
            [
              'HWY 71',
              'HWY 98',
              'CAPE SAN BLAS RD',
              'MONUMENT AVE',
              'REID AVE',
              'LONG AVE',
              'GARRISON AVE',
              'CR 30A',
              'DOLPHIN ST',
              'INDIAN PASS RD',
              'OVERSTREET RD',
              'LAKE GROVE RD',
            ],
            COMPASS,
            0.05,
          ),
  },
};

export function placesOf(slug: string): CountyPlaces {
  const places = COUNTY_PLACES[slug];
  if (!places) throw new RangeError(`no places for ${slug}`);
  return places;
}

export function isCountyZip(places: CountyPlaces, zip: number): boolean {
  return places.zips.some((z) => (typeof z === 'number' ? z === zip : zip >= z[0] && zip <= z[1]));
}

/** A section of the county's survey box, for parcels whose id does not encode one. */
export function strIn(places: CountyPlaces, rng: Prng): Str {
  return {
    section: rng.between(1, 36),
    township: rng.between(places.townships[0], places.townships[1]),
    range: rng.between(places.ranges[0], places.ranges[1]),
  };
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** How legal descriptions write a section: SS-TT-RR. */
export function formatStr(str: Str): string {
  return `${two(str.section)}-${two(str.township)}-${two(str.range)}`;
}

/** The section a legal description's metes and bounds start from (its leading SS-TT-RR), or null. */
export function strOfLegal(legal: string | null): Str | null {
  const m = legal === null ? null : /^(\d{2})-(\d{2})-(\d{2}) /.exec(legal);
  return m ? { section: Number(m[1]), township: Number(m[2]), range: Number(m[3]) } : null;
}
