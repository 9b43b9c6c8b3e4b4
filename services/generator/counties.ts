import { type CountyPlaces, COUNTY_PLACES, type Str, strIn } from './places.ts';
import type { CountyMarket } from './market.ts';
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
  /**
   * Relative size: the county's share of the generated certificates, after the
   * certificates its sales offer (market.ts): Miami-Dade ~45-65k, Duval ~31-33k,
   * Hillsborough 15-20k, Orange ~15k, Pinellas ~10-12.5k; Broward between.
   */
  weight: number;
  cities: readonly City[];
  /** ZIP codes, survey box and street naming of the county (places.ts). */
  places: CountyPlaces;
  /** Business days after the sale window opens (May 18) when this county's sale usually starts. */
  saleOffset: number;
  /** Business days the online sale runs. */
  saleDays: number;
  /** How its sale differs from Hillsborough's published one: struck share and 0.25% share (market.ts). */
  market: CountyMarket;
  /** Multiplies delinquent taxes: rural parcels owe less (mean sold face $700-2,000 against $2,200-4,000 in cities). */
  taxScale?: number;
  batchesPerDay: number;
  /** Advertising cost added to the face of each certificate, dollars. */
  advertisingFee: number;
  /** The parcel's section-township-range: the one its id encodes, or one in the county's survey box. */
  str(scrambled: number, city: City, rng: Prng): Str;
  /** parcel id of the parcel with index `scrambled` (already a bijection of the index), at `str`. */
  parcelId(scrambled: number, city: City, str: Str, rng: Prng): string;
  /** Values `scrambled` takes: the bijection's modulus. parcelId is one-to-one on [0, parcelSpace). */
  parcelSpace: number;
  /** The section-township-range a parcel id encodes, or null for counties whose ids carry none. */
  strOfParcelId(parcelId: string): Str | null;
  certificateNumber(taxYear: number, n: number): string;
  batchNumber(saleYear: number, batch: number): string;
  /** Subdivision names typical of the county, for legal descriptions. */
  subdivisions: readonly string[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const digits = (x: number, width: number) => pad(x, width);
const two = (n: number) => pad(n, 2);

/** Ids that open with SS-TT-RR (Orange, Pinellas). */
function strLeading(id: string): Str | null {
  const m = /^(\d{2})-(\d{2})-(\d{2})-/.exec(id);
  return m ? { section: Number(m[1]), township: Number(m[2]), range: Number(m[3]) } : null;
}

export const COUNTY_PROFILES: readonly CountyProfile[] = [
  {
    slug: 'miami-dade',
    weight: 30,
    cities: [
      {
        name: 'MIAMI',
        weight: 30,
        code: '01',
        zips: [33125, 33126, 33127, 33128, 33130, 33133, 33135, 33136, 33137, 33138, 33142, 33144, 33145, 33147, 33150],
      },
      {
        name: 'MIAMI',
        weight: 18,
        code: '30',
        zips: [33155, 33157, 33165, 33170, 33173, 33175, 33176, 33177, 33183, 33185, 33186, 33187, 33196],
      },
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
    places: COUNTY_PLACES['miami-dade']!,
    saleOffset: 6,
    saleDays: 3,
    market: { struckFactor: 0.9, quarterOffset: 0.01 },
    batchesPerDay: 8,
    advertisingFee: 9.25,
    parcelSpace: 10 ** 11,
    // 30-4016-001-0290: municipality, then a folio sequence; taken here as carrying no section-township-range.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES['miami-dade']!, rng),
    strOfParcelId: () => null,
    parcelId: (x, city) => {
      const d = digits(x, 11);
      return `${city.code}-${d.slice(0, 4)}-${d.slice(4, 7)}-${d.slice(7)}`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 6)}`,
    batchNumber: (y, b) => `${y % 100}${pad(b, 3)}`,
    subdivisions: [
      'CORAL GABLES SEC 2',
      'SHENANDOAH',
      'WESTCHESTER',
      'LITTLE RIVER GARDENS',
      'BISCAYNE PARK',
      'CAROL CITY',
      'NARANJA LAKES',
      'LEISURE CITY',
      'SWEETWATER',
      'ALLAPATTAH',
      'KENDALL LAKES',
      'OLYMPIA HEIGHTS',
    ],
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
    places: COUNTY_PLACES.broward!,
    saleOffset: 5,
    saleDays: 3,
    market: { struckFactor: 0.9, quarterOffset: 0.01 },
    batchesPerDay: 6,
    advertisingFee: 7.5,
    // 5042 01 02 0100: township and range (the city's code), section, block, lot. The section is
    // x mod 36, the rest x / 36, so ids stay one-to-one on 36 * 10^6 values.
    parcelSpace: 36 * 10 ** 6,
    str: (x, city) => ({ section: (x % 36) + 1, township: Number(city.code.slice(0, 2)), range: Number(city.code.slice(2)) }),
    strOfParcelId: (id) => {
      const m = /^(\d{2})(\d{2}) (\d{2}) /.exec(id);
      return m ? { section: Number(m[3]), township: Number(m[1]), range: Number(m[2]) } : null;
    },
    parcelId: (x, city, str) => {
      const d = digits(Math.floor(x / 36), 6);
      return `${city.code} ${two(str.section)} ${d.slice(0, 2)} ${d.slice(2)}`;
    },
    certificateNumber: (_y, n) => pad(n, 6),
    batchNumber: (_y, b) => `B${pad(b, 2)}`,
    subdivisions: [
      'LAUDERDALE MANORS',
      'HOLLYWOOD HILLS',
      'RIVERLAND VILLAGE',
      'BROWARD ESTATES',
      'CORAL RIDGE',
      'SUNRISE GOLF VILLAGE',
      'PLANTATION PARK',
      'DRIFTWOOD ACRES',
      'CRESTHAVEN',
    ],
  },
  {
    slug: 'hillsborough',
    weight: 12,
    cities: [
      {
        name: 'TAMPA',
        weight: 45,
        code: 'A',
        zips: [
          33602, 33603, 33604, 33605, 33607, 33610, 33611, 33612, 33613, 33614, 33615, 33616, 33617, 33618, 33619, 33629, 33634, 33637,
        ],
      },
      { name: 'BRANDON', weight: 12, code: 'U', zips: [33510, 33511] },
      { name: 'PLANT CITY', weight: 8, code: 'P', zips: [33563, 33565, 33566, 33567] },
      { name: 'TEMPLE TERRACE', weight: 5, code: 'T', zips: [33617, 33637] },
      { name: 'RIVERVIEW', weight: 10, code: 'U', zips: [33569, 33578, 33579] },
      { name: 'RUSKIN', weight: 6, code: 'U', zips: [33570, 33573] },
      { name: 'SEFFNER', weight: 5, code: 'U', zips: [33584] },
      { name: 'LUTZ', weight: 5, code: 'U', zips: [33548, 33549, 33558] },
      { name: 'VALRICO', weight: 4, code: 'U', zips: [33594, 33596] },
    ],
    places: COUNTY_PLACES.hillsborough!,
    saleOffset: 7,
    saleDays: 2,
    market: { struckFactor: 1, quarterOffset: 0 },
    batchesPerDay: 5,
    advertisingFee: 8.0,
    parcelSpace: 10 ** 11,
    // A-19-28-20-4R3-000012-00034.0: jurisdiction letter, section-township-range, plat code, block, lot.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES.hillsborough!, rng),
    strOfParcelId: (id) => {
      const m = /^[A-Z]-(\d{2})-(\d{2})-(\d{2})-/.exec(id);
      return m ? { section: Number(m[1]), township: Number(m[2]), range: Number(m[3]) } : null;
    },
    parcelId: (x, city, str, rng) => {
      const d = digits(x, 11);
      const plat = `${rng.between(1, 9)}${'ABCDEFGHJKMNPRSTVWXYZ'[rng.int(21)]}${rng.between(0, 9)}`;
      return `${city.code}-${two(str.section)}-${two(str.township)}-${two(str.range)}-${plat}-${d.slice(0, 6)}-${d.slice(6)}.0`;
    },
    certificateNumber: (y, n) => `${pad(n, 6)}-${y}`,
    batchNumber: (y, b) => `${y}-${pad(b, 2)}`,
    subdivisions: [
      'SEMINOLE HEIGHTS',
      'SULPHUR SPRINGS',
      'TAMPA HEIGHTS',
      'BELMONT HEIGHTS',
      'PROGRESS VILLAGE',
      'CARROLLWOOD',
      'TOWN N COUNTRY PARK',
      'BLOOMINGDALE',
      'PALM RIVER',
    ],
  },
  {
    slug: 'orange',
    weight: 11,
    cities: [
      {
        name: 'ORLANDO',
        weight: 50,
        code: '',
        zips: [
          32801, 32803, 32804, 32805, 32806, 32807, 32808, 32809, 32810, 32811, 32812, 32817, 32818, 32819, 32822, 32825, 32826, 32828,
          32835, 32839,
        ],
      },
      { name: 'APOPKA', weight: 10, code: '', zips: [32703, 32712] },
      { name: 'WINTER PARK', weight: 6, code: '', zips: [32789, 32792] },
      { name: 'WINTER GARDEN', weight: 7, code: '', zips: [34787] },
      { name: 'OCOEE', weight: 7, code: '', zips: [34761] },
      { name: 'MAITLAND', weight: 3, code: '', zips: [32751] },
      { name: 'WINDERMERE', weight: 4, code: '', zips: [34786] },
      { name: 'ZELLWOOD', weight: 2, code: '', zips: [32798] },
      { name: 'CHRISTMAS', weight: 2, code: '', zips: [32709] },
    ],
    places: COUNTY_PLACES.orange!,
    saleOffset: 3,
    saleDays: 2,
    market: { struckFactor: 0.8, quarterOffset: -0.01 },
    batchesPerDay: 5,
    advertisingFee: 6.75,
    parcelSpace: 10 ** 9,
    // 28-22-29-0000-00-001: section-township-range, subdivision, block, lot.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES.orange!, rng),
    strOfParcelId: strLeading,
    parcelId: (x, _city, str) => {
      const d = digits(x, 9);
      return `${two(str.section)}-${two(str.township)}-${two(str.range)}-${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 5)}`,
    batchNumber: (_y, b) => pad(b, 3),
    subdivisions: [
      'PINE HILLS',
      'ANGEBILT ADD',
      'COLLEGE PARK',
      'CONWAY ESTATES',
      'WASHINGTON SHORES',
      'ROSEMONT',
      'AZALEA PARK',
      'HIAWASSEE HILLS',
      'ORLO VISTA TERRACE',
    ],
  },
  {
    slug: 'pinellas',
    weight: 8,
    cities: [
      {
        name: 'ST PETERSBURG',
        weight: 35,
        code: '',
        zips: [33701, 33702, 33703, 33704, 33705, 33707, 33710, 33711, 33712, 33713, 33714, 33716],
      },
      { name: 'CLEARWATER', weight: 20, code: '', zips: [33755, 33756, 33759, 33760, 33761, 33763, 33764, 33765] },
      { name: 'LARGO', weight: 12, code: '', zips: [33770, 33771, 33773, 33774, 33778] },
      { name: 'PINELLAS PARK', weight: 8, code: '', zips: [33781, 33782] },
      { name: 'DUNEDIN', weight: 6, code: '', zips: [34698] },
      { name: 'TARPON SPRINGS', weight: 6, code: '', zips: [34688, 34689] },
      { name: 'SEMINOLE', weight: 6, code: '', zips: [33772, 33776, 33777] },
      { name: 'GULFPORT', weight: 4, code: '', zips: [33707] },
      { name: 'SAFETY HARBOR', weight: 3, code: '', zips: [34695] },
    ],
    places: COUNTY_PLACES.pinellas!,
    saleOffset: 1,
    saleDays: 2,
    market: { struckFactor: 0.1, quarterOffset: -0.02 },
    batchesPerDay: 4,
    advertisingFee: 8.5,
    parcelSpace: 10 ** 12,
    // 15-29-16-14310-003-0110: section-township-range, subdivision, block, lot.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES.pinellas!, rng),
    strOfParcelId: strLeading,
    parcelId: (x, _city, str) => {
      const d = digits(x, 12);
      return `${two(str.section)}-${two(str.township)}-${two(str.range)}-${d.slice(0, 5)}-${d.slice(5, 8)}-${d.slice(8)}`;
    },
    certificateNumber: (y, n) => `C${y}-${pad(n, 5)}`,
    batchNumber: (y, b) => `${y}B${pad(b, 2)}`,
    subdivisions: [
      'ROSER PARK',
      'KENWOOD SUB',
      'LAKEWOOD ESTATES',
      'PASADENA ESTATES',
      'HARSHAW LAKE',
      'GREENWOOD HEIGHTS',
      'BAYVIEW BLUFFS',
      'PALM BLUFF',
    ],
  },
  {
    slug: 'duval',
    weight: 17,
    cities: [
      {
        name: 'JACKSONVILLE',
        weight: 80,
        code: '',
        zips: [
          32202, 32204, 32205, 32206, 32207, 32208, 32209, 32210, 32211, 32216, 32217, 32218, 32219, 32220, 32221, 32244, 32246, 32254,
          32257, 32277,
        ],
      },
      { name: 'JACKSONVILLE BEACH', weight: 7, code: '', zips: [32250] },
      { name: 'ATLANTIC BEACH', weight: 4, code: '', zips: [32233] },
      { name: 'NEPTUNE BEACH', weight: 3, code: '', zips: [32266] },
      { name: 'BALDWIN', weight: 2, code: '', zips: [32234] },
    ],
    places: COUNTY_PLACES.duval!,
    saleOffset: 0,
    saleDays: 2,
    market: { struckFactor: 0.6, quarterOffset: -0.01 },
    batchesPerDay: 6,
    advertisingFee: 5.5,
    parcelSpace: 10 ** 10,
    // 012345-0000: real estate number and suffix, which carry no section-township-range.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES.duval!, rng),
    strOfParcelId: () => null,
    parcelId: (x) => {
      const d = digits(x, 10);
      return `${d.slice(0, 6)}-${d.slice(6)}`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 6)}-000`,
    batchNumber: (_y, b) => `R${pad(b, 2)}`,
    subdivisions: [
      'SPRINGFIELD',
      'RIVERSIDE ANNEX',
      'MONCRIEF PARK',
      'ARLINGTON HILLS',
      'NORTHWOOD',
      'SAN JOSE ESTATES',
      'LACKAWANNA',
      'PICKETTVILLE',
    ],
  },
  // Small rural counties (Franklin: 633-1,791 certificates a sale, 29 winners in 2021; Gulf:
  // 703-844 sold to 24-26 bidders): sampled at a higher rate than the large counties (about
  // 1 in 8) so their own market can be read: people at 5-14%, a fifth of the parcels unsold.
  {
    slug: 'franklin',
    weight: 2,
    taxScale: 0.55,
    cities: [
      { name: 'APALACHICOLA', weight: 35, code: '', zips: [32320] },
      { name: 'EASTPOINT', weight: 30, code: '', zips: [32328] },
      { name: 'CARRABELLE', weight: 25, code: '', zips: [32322] },
      { name: 'ALLIGATOR POINT', weight: 10, code: '', zips: [32346] },
    ],
    places: COUNTY_PLACES.franklin!,
    saleOffset: 9,
    saleDays: 1,
    market: { struckFactor: 7, quarterOffset: -0.55, institutionalQuarter: 0.55, eighteenShare: 0.05 },
    batchesPerDay: 1,
    advertisingFee: 12.0,
    parcelSpace: 10 ** 12,
    // 01-09S-08W-0000-0010-0000: section, township south, range west, then the parcel.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES.franklin!, rng),
    strOfParcelId: (id) => {
      const m = /^(\d{2})-(\d{2})S-(\d{2})W-/.exec(id);
      return m ? { section: Number(m[1]), township: Number(m[2]), range: Number(m[3]) } : null;
    },
    parcelId: (x, _city, str) => {
      const d = digits(x, 12);
      return `${two(str.section)}-${two(str.township)}S-${two(str.range)}W-${d.slice(0, 4)}-${d.slice(4, 8)}-${d.slice(8)}`;
    },
    certificateNumber: (y, n) => `${pad(n, 4)}-${y}`,
    batchNumber: (_y, b) => String(b),
    subdivisions: [
      'ST GEORGE ISLAND UNIT 1',
      'LANARK VILLAGE',
      'MAGNOLIA BLUFF',
      'PICKETTS ADD',
      'GREATER APALACHICOLA',
      'CARRABELLE BEACH',
      'BALD POINT',
    ],
  },
  {
    slug: 'gulf',
    weight: 2,
    taxScale: 0.6,
    cities: [
      { name: 'PORT ST JOE', weight: 65, code: '', zips: [32456] },
      { name: 'WEWAHITCHKA', weight: 35, code: '', zips: [32465] },
    ],
    places: COUNTY_PLACES.gulf!,
    saleOffset: 8,
    saleDays: 1,
    market: { struckFactor: 6, quarterOffset: -0.5, institutionalQuarter: 0.6, eighteenShare: 0.04 },
    batchesPerDay: 1,
    advertisingFee: 11.0,
    parcelSpace: 10 ** 10,
    // 03806-000R style: an account number with no section-township-range.
    str: (_x, _city, rng) => strIn(COUNTY_PLACES.gulf!, rng),
    strOfParcelId: () => null,
    parcelId: (x) => {
      const d = digits(x, 10);
      return `${d.slice(0, 5)}-${d.slice(5)}R`;
    },
    certificateNumber: (y, n) => `${y}-${pad(n, 4)}`,
    batchNumber: (_y, b) => `L${b}`,
    subdivisions: ['HIGHLAND VIEW', 'OAK GROVE', 'WINDMARK BEACH', 'CAPE SAN BLAS', 'HOWARD CREEK', 'DALKEITH', 'ST JOE BEACH'],
  },
];

/** Counties whose portal is monitored but whose certificates are not ingested yet. */
export const VENDOR_TRACKED = ['palm-beach', 'lee', 'polk', 'brevard', 'volusia', 'seminole', 'collier', 'leon'] as const;
