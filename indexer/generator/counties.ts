import type { Prng } from './prng.ts';

/**
 * What makes each modelled county look like itself: its cities and ZIPs, how it
 * writes parcel ids and certificate numbers, its sale calendar and its share of
 * the state's certificates. Only certificate-level counties need a profile.
 */

export interface City {
  name: string;
  zips: readonly number[];
  /** Relative share of the county's parcels. */
  weight: number;
  /** Municipality code some counties put at the head of the parcel id. */
  code: string;
}

export interface CountyProfile {
  slug: string;
  /** Relative size: the county's share of the generated certificates. */
  weight: number;
  cities: readonly City[];
  /** Grid counties (NW 27TH AVE) versus named streets (OCEAN DR). */
  gridStreets: number;
  /** Days after May 24 of the sale year when the sale opens (moved to a weekday). */
  saleOffset: number;
  saleDays: number;
  batchesPerDay: number;
  /** Advertising cost added to the face of each certificate, dollars. */
  advertisingFee: number;
  /** parcel id of the parcel with index `scrambled` (already a bijection of the index). */
  parcelId(scrambled: number, city: City, rng: Prng): string;
  /** Digits of `scrambled` that parcelId consumes: the bijection's modulus is 10^parcelDigits. */
  parcelDigits: number;
  certificateNumber(taxYear: number, n: number): string;
  batchNumber(saleYear: number, batch: number): string;
  /** Subdivision names typical of the county, for legal descriptions. */
  subdivisions: readonly string[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const digits = (x: number, width: number) => pad(x, width);
const two = (n: number) => pad(n, 2);

export const COUNTY_PROFILES: readonly CountyProfile[] = [
  {
    slug: 'miami-dade',
    weight: 31,
    cities: [
      { name: 'MIAMI', weight: 30, code: '01', zips: [33125, 33126, 33127, 33128, 33130, 33133, 33135, 33136, 33137, 33138, 33142, 33144, 33145, 33147, 33150] },
      { name: 'MIAMI', weight: 18, code: '30', zips: [33155, 33157, 33165, 33170, 33173, 33175, 33176, 33177, 33183, 33185, 33186, 33187, 33196] },
      { name: 'HIALEAH', weight: 12, code: '04', zips: [33010, 33012, 33013, 33014, 33015, 33016, 33018] },
      { name: 'HOMESTEAD', weight: 7, code: '10', zips: [33030, 33031, 33032, 33033, 33035] },
      { name: 'MIAMI GARDENS', weight: 8, code: '34', zips: [33054, 33055, 33056, 33169] },
      { name: 'NORTH MIAMI', weight: 5, code: '06', zips: [33161, 33168, 33181] },
      { name: 'MIAMI BEACH', weight: 5, code: '02', zips: [33139, 33140, 33141] },
      { name: 'CORAL GABLES', weight: 3, code: '03', zips: [33134, 33143, 33146] },
      { name: 'DORAL', weight: 3, code: '35', zips: [33122, 33166, 33172, 33178] },
      { name: 'OPA-LOCKA', weight: 3, code: '08', zips: [33054] },
      { name: 'FLORIDA CITY', weight: 2, code: '16', zips: [33034] },
      { name: 'CUTLER BAY', weight: 2, code: '36', zips: [33157, 33189, 33190] },
    ],
    gridStreets: 0.8,
    saleOffset: 8,
    saleDays: 3,
    batchesPerDay: 8,
    advertisingFee: 9.25,
    parcelDigits: 11,
    // 30-4016-001-0290: municipality, then section/sub, block, lot.
    parcelId: (x, city) => {
      const d = digits(x, 11);
      return `${city.code}-${d.slice(0, 4)}-${d.slice(4, 7)}-${d.slice(7)}`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 6)}`,
    batchNumber: (y, b) => `${y % 100}${pad(b, 3)}`,
    subdivisions: ['CORAL GABLES SEC 2', 'SHENANDOAH', 'WESTCHESTER', 'LITTLE RIVER GARDENS', 'BISCAYNE PARK', 'CAROL CITY', 'NARANJA LAKES', 'LEISURE CITY', 'SWEETWATER', 'ALLAPATTAH', 'KENDALL LAKES', 'OLYMPIA HEIGHTS'],
  },
  {
    slug: 'broward',
    weight: 22,
    cities: [
      { name: 'FORT LAUDERDALE', weight: 20, code: '5042', zips: [33301, 33304, 33305, 33308, 33309, 33311, 33312, 33315, 33316] },
      { name: 'HOLLYWOOD', weight: 14, code: '5142', zips: [33019, 33020, 33021, 33023, 33024] },
      { name: 'POMPANO BEACH', weight: 10, code: '4842', zips: [33060, 33062, 33064, 33069] },
      { name: 'LAUDERHILL', weight: 8, code: '4941', zips: [33311, 33313, 33319] },
      { name: 'MIRAMAR', weight: 8, code: '5141', zips: [33023, 33025, 33027, 33029] },
      { name: 'PEMBROKE PINES', weight: 8, code: '5140', zips: [33024, 33026, 33028] },
      { name: 'CORAL SPRINGS', weight: 7, code: '4841', zips: [33065, 33067, 33071, 33076] },
      { name: 'DEERFIELD BEACH', weight: 5, code: '4842', zips: [33441, 33442] },
      { name: 'SUNRISE', weight: 5, code: '4941', zips: [33313, 33322, 33323, 33351] },
      { name: 'DAVIE', weight: 5, code: '5041', zips: [33314, 33324, 33325, 33328, 33330] },
      { name: 'MARGATE', weight: 4, code: '4841', zips: [33063, 33068] },
      { name: 'DANIA BEACH', weight: 3, code: '5042', zips: [33004] },
    ],
    gridStreets: 0.7,
    saleOffset: 6,
    saleDays: 3,
    batchesPerDay: 6,
    advertisingFee: 7.5,
    parcelDigits: 8,
    // 5042 01 02 0100: township/range, section, block, lot, space-separated.
    parcelId: (x, city) => {
      const d = digits(x, 8);
      return `${city.code} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)}`;
    },
    certificateNumber: (_y, n) => pad(n, 6),
    batchNumber: (_y, b) => `B${pad(b, 2)}`,
    subdivisions: ['LAUDERDALE MANORS', 'HOLLYWOOD HILLS', 'RIVERLAND VILLAGE', 'BROWARD ESTATES', 'CORAL RIDGE', 'SUNRISE GOLF VILLAGE', 'PLANTATION PARK', 'DRIFTWOOD ACRES', 'CRESTHAVEN'],
  },
  {
    slug: 'hillsborough',
    weight: 16,
    cities: [
      { name: 'TAMPA', weight: 45, code: 'A', zips: [33602, 33603, 33604, 33605, 33607, 33610, 33611, 33612, 33613, 33614, 33615, 33616, 33617, 33618, 33619, 33629, 33634, 33637] },
      { name: 'BRANDON', weight: 12, code: 'U', zips: [33510, 33511] },
      { name: 'PLANT CITY', weight: 8, code: 'P', zips: [33563, 33565, 33566, 33567] },
      { name: 'TEMPLE TERRACE', weight: 5, code: 'T', zips: [33617, 33637] },
      { name: 'RIVERVIEW', weight: 10, code: 'U', zips: [33569, 33578, 33579] },
      { name: 'RUSKIN', weight: 6, code: 'U', zips: [33570, 33573] },
      { name: 'SEFFNER', weight: 5, code: 'U', zips: [33584] },
      { name: 'LUTZ', weight: 5, code: 'U', zips: [33548, 33549, 33558, 33559] },
      { name: 'VALRICO', weight: 4, code: 'U', zips: [33594, 33596] },
    ],
    gridStreets: 0.15,
    saleOffset: 9,
    saleDays: 2,
    batchesPerDay: 5,
    advertisingFee: 8.0,
    parcelDigits: 11,
    // A-19-28-20-4R3-000012-00034.0: jurisdiction letter, section-township-range, plat code, block, lot.
    parcelId: (x, city, rng) => {
      const d = digits(x, 11);
      const plat = `${rng.between(1, 9)}${'ABCDEFGHJKMNPRSTVWXYZ'[rng.int(21)]}${rng.between(0, 9)}`;
      return `${city.code}-${two(rng.between(1, 36))}-${two(rng.between(27, 32))}-${two(rng.between(17, 22))}-${plat}-${d.slice(0, 6)}-${d.slice(6)}.0`;
    },
    certificateNumber: (y, n) => `${pad(n, 6)}-${y}`,
    batchNumber: (y, b) => `${y}-${pad(b, 2)}`,
    subdivisions: ['SEMINOLE HEIGHTS', 'SULPHUR SPRINGS', 'TAMPA HEIGHTS', 'BELMONT HEIGHTS', 'PROGRESS VILLAGE', 'CARROLLWOOD', 'TOWN N COUNTRY PARK', 'BLOOMINGDALE', 'PALM RIVER'],
  },
  {
    slug: 'orange',
    weight: 14,
    cities: [
      { name: 'ORLANDO', weight: 50, code: '', zips: [32801, 32803, 32804, 32805, 32806, 32807, 32808, 32809, 32810, 32811, 32812, 32817, 32818, 32819, 32822, 32825, 32826, 32828, 32835, 32839] },
      { name: 'APOPKA', weight: 10, code: '', zips: [32703, 32712] },
      { name: 'WINTER PARK', weight: 6, code: '', zips: [32789, 32792] },
      { name: 'WINTER GARDEN', weight: 7, code: '', zips: [34787] },
      { name: 'OCOEE', weight: 7, code: '', zips: [34761] },
      { name: 'MAITLAND', weight: 3, code: '', zips: [32751] },
      { name: 'WINDERMERE', weight: 4, code: '', zips: [34786] },
      { name: 'ZELLWOOD', weight: 2, code: '', zips: [32798] },
      { name: 'CHRISTMAS', weight: 2, code: '', zips: [32709] },
    ],
    gridStreets: 0.05,
    saleOffset: 4,
    saleDays: 2,
    batchesPerDay: 5,
    advertisingFee: 6.75,
    parcelDigits: 9,
    // 28-22-29-0000-00-001: section-township-range, subdivision, block, lot.
    parcelId: (x, _city, rng) => {
      const d = digits(x, 9);
      return `${two(rng.between(1, 36))}-${two(rng.between(20, 24))}-${two(rng.between(27, 31))}-${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 5)}`,
    batchNumber: (_y, b) => pad(b, 3),
    subdivisions: ['PINE HILLS', 'ANGEBILT ADD', 'COLLEGE PARK', 'CONWAY ESTATES', 'WASHINGTON SHORES', 'ROSEMONT', 'AZALEA PARK', 'HIAWASSEE HILLS', 'ORLO VISTA TERRACE'],
  },
  {
    slug: 'pinellas',
    weight: 10,
    cities: [
      { name: 'ST PETERSBURG', weight: 35, code: '', zips: [33701, 33702, 33703, 33704, 33705, 33707, 33710, 33711, 33712, 33713, 33714, 33716] },
      { name: 'CLEARWATER', weight: 20, code: '', zips: [33755, 33756, 33759, 33760, 33761, 33763, 33764, 33765] },
      { name: 'LARGO', weight: 12, code: '', zips: [33770, 33771, 33773, 33774, 33778] },
      { name: 'PINELLAS PARK', weight: 8, code: '', zips: [33781, 33782] },
      { name: 'DUNEDIN', weight: 6, code: '', zips: [34698] },
      { name: 'TARPON SPRINGS', weight: 6, code: '', zips: [34688, 34689] },
      { name: 'SEMINOLE', weight: 6, code: '', zips: [33772, 33776, 33777] },
      { name: 'GULFPORT', weight: 4, code: '', zips: [33707] },
      { name: 'SAFETY HARBOR', weight: 3, code: '', zips: [34695] },
    ],
    gridStreets: 0.6,
    saleOffset: 2,
    saleDays: 2,
    batchesPerDay: 4,
    advertisingFee: 8.5,
    parcelDigits: 12,
    // 15-29-16-14310-003-0110: section-township-range, subdivision, block, lot.
    parcelId: (x, _city, rng) => {
      const d = digits(x, 12);
      return `${two(rng.between(1, 36))}-${two(rng.between(27, 31))}-${two(rng.between(14, 16))}-${d.slice(0, 5)}-${d.slice(5, 8)}-${d.slice(8)}`;
    },
    certificateNumber: (y, n) => `C${y}-${pad(n, 5)}`,
    batchNumber: (y, b) => `${y}B${pad(b, 2)}`,
    subdivisions: ['ROSER PARK', 'KENWOOD SUB', 'LAKEWOOD ESTATES', 'PASADENA ESTATES', 'HARSHAW LAKE', 'GREENWOOD HEIGHTS', 'BAYVIEW BLUFFS', 'PALM BLUFF'],
  },
  {
    slug: 'duval',
    weight: 9,
    cities: [
      { name: 'JACKSONVILLE', weight: 80, code: '', zips: [32202, 32204, 32205, 32206, 32207, 32208, 32209, 32210, 32211, 32216, 32217, 32218, 32219, 32220, 32221, 32244, 32246, 32254, 32257, 32277] },
      { name: 'JACKSONVILLE BEACH', weight: 7, code: '', zips: [32250] },
      { name: 'ATLANTIC BEACH', weight: 4, code: '', zips: [32233] },
      { name: 'NEPTUNE BEACH', weight: 3, code: '', zips: [32266] },
      { name: 'BALDWIN', weight: 2, code: '', zips: [32234] },
    ],
    gridStreets: 0,
    saleOffset: 0,
    saleDays: 1,
    batchesPerDay: 6,
    advertisingFee: 5.5,
    parcelDigits: 10,
    // 012345-0000: real estate number and suffix.
    parcelId: (x) => {
      const d = digits(x, 10);
      return `${d.slice(0, 6)}-${d.slice(6)}`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 6)}-000`,
    batchNumber: (_y, b) => `R${pad(b, 2)}`,
    subdivisions: ['SPRINGFIELD', 'RIVERSIDE ANNEX', 'MONCRIEF PARK', 'ARLINGTON HILLS', 'NORTHWOOD', 'SAN JOSE ESTATES', 'LACKAWANNA', 'PICKETTVILLE'],
  },
];

/** Counties whose portal is monitored but whose certificates are not ingested yet. */
export const VENDOR_TRACKED = ['palm-beach', 'lee', 'polk', 'brevard', 'volusia', 'seminole', 'collier', 'leon'] as const;
