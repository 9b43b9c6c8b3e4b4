/**
 * Curated word lists for fixture names and places. Invented on purpose: holder
 * names must not be real companies, and keeping the lists here (not in a faker
 * package) keeps output identical across installs. Lists are ordered roughly by
 * frequency because pickers favour the head.
 */

export const SURNAMES = [
  'GARCIA', 'RODRIGUEZ', 'SMITH', 'HERNANDEZ', 'JOHNSON', 'MARTINEZ', 'WILLIAMS', 'GONZALEZ', 'LOPEZ', 'BROWN',
  'PEREZ', 'JONES', 'SANCHEZ', 'DIAZ', 'DAVIS', 'FERNANDEZ', 'MILLER', 'RAMIREZ', 'TORRES', 'WILSON',
  'MOORE', 'GOMEZ', 'TAYLOR', 'ALVAREZ', 'ANDERSON', 'THOMAS', 'JACKSON', 'RIVERA', 'WHITE', 'MORALES',
  'HARRIS', 'CRUZ', 'MARTIN', 'REYES', 'THOMPSON', 'CASTILLO', 'ROBINSON', 'SUAREZ', 'CLARK', 'MENDEZ',
  'LEWIS', 'VASQUEZ', 'WALKER', 'RUIZ', 'HALL', 'JIMENEZ', 'ALLEN', 'NGUYEN', 'YOUNG', 'PATEL',
  'KING', 'CASTRO', 'WRIGHT', 'ORTIZ', 'SCOTT', 'ROMERO', 'GREEN', 'MEDINA', 'ADAMS', 'HERRERA',
  'BAKER', 'AGUILAR', 'NELSON', 'VARGAS', 'CARTER', 'MORENO', 'MITCHELL', 'GUERRERO', 'ROBERTS', 'RAMOS',
  'PHILLIPS', 'CAMPBELL', 'EVANS', 'PIERRE', 'JEAN-BAPTISTE', 'EDWARDS', 'COLLINS', 'STEWART', 'SANTOS', 'MORRIS',
  "O'BRIEN", 'ROGERS', 'REED', 'COOK', 'MORGAN', 'BELL', 'MURPHY', 'BAILEY', 'COOPER', 'RICHARDSON',
  'COX', 'HOWARD', 'WARD', 'PETERSON', 'GRAY', 'WATSON', 'BROOKS', 'KELLY', 'SANDERS', 'PRICE',
  'BENNETT', 'WOOD', 'BARNES', 'ROSS', 'HENDERSON', 'COLEMAN', 'JENKINS', 'PERRY', 'POWELL', 'LONG',
  'DELGADO', 'CABRERA', 'VALDES', 'DUMAS', 'ST LOUIS', 'MCDONALD', 'MACKENZIE', 'DE LA CRUZ', 'VAN HORN', 'LEBLANC',
] as const;

export const GIVEN_NAMES = [
  'MARIA', 'JOSE', 'JOHN', 'JAMES', 'ROBERT', 'MICHAEL', 'CARLOS', 'LUIS', 'MARY', 'JUAN',
  'WILLIAM', 'DAVID', 'PATRICIA', 'JORGE', 'LINDA', 'RICHARD', 'ANA', 'BARBARA', 'CHARLES', 'ELIZABETH',
  'JOSEPH', 'JENNIFER', 'THOMAS', 'ROSA', 'PEDRO', 'SUSAN', 'DANIEL', 'MARGARET', 'MIGUEL', 'DOROTHY',
  'FRANCISCO', 'LISA', 'ANTHONY', 'NANCY', 'MARK', 'KAREN', 'RAFAEL', 'BETTY', 'MANUEL', 'HELEN',
  'STEVEN', 'SANDRA', 'PAUL', 'DONNA', 'ANDREW', 'CAROL', 'KENNETH', 'RUTH', 'JEAN', 'MARIE',
  'GEORGE', 'SHARON', 'EDWARD', 'MICHELLE', 'RONALD', 'LAURA', 'ROBERTO', 'CARMEN', 'ALBERTO', 'YOLANDA',
  'THANH', 'RAJESH', 'PRIYA', 'WEI', 'MOHAMMED', 'FATIMA', 'DMITRI', 'OLGA', 'KEISHA', 'TYRONE',
  'GLADYS', 'ERNESTO', 'BEATRIZ', 'WILLIE', 'EARL', 'GERTRUDE', 'CLARENCE', 'MILDRED', 'HOMER', 'LUCILLE',
] as const;

export const MIDDLE_INITIALS = 'ABCDEFGHJKLMNPRSTW' as const;

/** Second halves of company names for owner LLCs. */
export const COMPANY_WORDS = [
  'SUNRISE', 'BAYSIDE', 'PALM', 'CORAL', 'OCEANVIEW', 'GATEWAY', 'SOUTHERN', 'MERIDIAN', 'HARBOR', 'TROPIC',
  'EVERGLADES', 'SEABREEZE', 'HERITAGE', 'KEYSTONE', 'PINNACLE', 'LIBERTY', 'SUMMIT', 'ORCHID', 'ROYAL', 'EMERALD',
  'AMBER', 'CRESTVIEW', 'LAKESHORE', 'RIVERBEND', 'SANDPIPER', 'TARPON', 'MANGROVE', 'HIBISCUS', 'EGRET', 'PELICAN',
] as const;
export const COMPANY_KINDS = ['HOLDINGS', 'PROPERTIES', 'INVESTMENTS', 'REALTY', 'ENTERPRISES', 'GROUP', 'VENTURES', 'CAPITAL', 'HOMES', 'DEVELOPMENT'] as const;
export const COMPANY_SUFFIXES = ['LLC', 'LLC', 'LLC', 'INC', 'CORP', 'LP', 'LLLP', 'CO'] as const;

/**
 * Institutional certificate buyers (invented names). A fund family bids through
 * numbered entities (FL TAX LIEN FUND 12 LLC, 14, 15...), and a fund named for a
 * vintage year (CAPSTONE FLTC 2021-A LLC) exists only from that year on; it
 * buys in its vintage year and the two after, then winds down.
 */
export interface HolderFamily {
  /** `#` is replaced by the entity number or vintage year. */
  pattern: string;
  /** Entity numbers, for numbered families. */
  numbers?: readonly number[];
  /** Vintage years, for funds named for a year. */
  vintages?: readonly number[];
  /** Relative share of the institutional bids the family wins. */
  weight: number;
}

export const HOLDER_FAMILIES: readonly HolderFamily[] = [
  { pattern: 'FL TAX LIEN FUND # LLC', numbers: [11, 12, 14, 15, 16], weight: 14 },
  { pattern: 'PALMETTO CERTIFICATE HOLDINGS # LLC', numbers: [1, 2, 3, 4], weight: 11 },
  { pattern: 'CAPSTONE FLTC #-A LLC', vintages: [2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026], weight: 10 },
  { pattern: 'MAGNOLIA LIEN INVESTORS # LLC', numbers: [5, 6, 7, 8], weight: 8 },
  { pattern: 'GULFSTREAM TLC # LLC', vintages: [2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026], weight: 8 },
  { pattern: 'TLF EVERGLADES # LLC', numbers: [3, 4, 5, 6], weight: 7 },
  { pattern: 'SUNSHINE STATE LIEN PARTNERS LP', weight: 6 },
  { pattern: 'PELICAN POINT TAX LIENS # LLC', numbers: [19, 20, 21, 22], weight: 6 },
  { pattern: 'HARBORVIEW NATIONAL BANK CUST FOR TLF # LLC', vintages: [2016, 2018, 2020, 2022, 2024, 2026], weight: 5 },
  { pattern: 'SABAL PALM FUNDING # LLC', numbers: [7, 8, 9, 10], weight: 5 },
  { pattern: 'INTRACOASTAL BANK NA AS CUST FOR OSPREY CERT # LLC', numbers: [2, 3, 4], weight: 4 },
  { pattern: 'CORAL REEF TAX CERT FUND LLC', weight: 3 },
  { pattern: 'ATLANTIC BAYOU CAPITAL # LLC', numbers: [1, 2], weight: 3 },
  { pattern: 'TIDEWATER LIEN FUND # LP', numbers: [3, 4, 5], weight: 3 },
  { pattern: 'TAMIAMI TRUST BANK AS CUSTODIAN FOR GULF LIENS # LLC', numbers: [6, 7], weight: 2 },
  { pattern: 'BLUE HERON TAX FUND LLC', weight: 2 },
  { pattern: 'KEYLIME TAX CERTIFICATES LLC', weight: 2 },
  { pattern: 'SOUTHERN PINE TRUST CO CUST FBO MAGNOLIA FUND I', weight: 1 },
  { pattern: 'MANATEE BAY CERT TRUST', weight: 1 },
  // Trusts that issue a series a year: SEAGRAPE TAX LIEN TRUST SERIES 2021.
  { pattern: 'SEAGRAPE TAX LIEN TRUST SERIES #', vintages: [2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026], weight: 6 },
];

/** Years a vintage fund buys in, from its vintage on. */
export const VINTAGE_BUYING_YEARS = 3;

/** Self-directed retirement account custodians (invented) for individual bidders. */
export const IRA_CUSTODIANS = ['SUNCOAST IRA SERVICES', 'PANHANDLE SELF DIRECTED TRUST CO', 'BAYFRONT RETIREMENT TRUST'] as const;

export const SUBDIVISION_WORDS = [
  'PALM', 'CORAL', 'LAKE', 'BAY', 'PINE', 'OAK', 'RIVER', 'SUNSET', 'ROYAL', 'GOLDEN',
  'COUNTRY CLUB', 'TROPICAL', 'HIGHLAND', 'GROVE', 'MEADOW', 'FOREST', 'OCEAN', 'HARBOR', 'CYPRESS', 'ORANGE',
] as const;
export const SUBDIVISION_KINDS = ['ESTATES', 'PARK', 'HEIGHTS', 'MANOR', 'GARDENS', 'SHORES', 'ACRES', 'TERRACE', 'VILLAS', 'HILLS', 'ISLES'] as const;

export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}TH`;
  switch (n % 10) {
    case 1:
      return `${n}ST`;
    case 2:
      return `${n}ND`;
    case 3:
      return `${n}RD`;
    default:
      return `${n}TH`;
  }
}
