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

/** Institutional certificate buyers: invented fund names, most numbered like real bidding entities. */
export const INSTITUTIONAL_HOLDERS = [
  'FL TAX LIEN FUND 12 LLC',
  'SUNSHINE STATE LIEN PARTNERS LP',
  'PALMETTO CERTIFICATE HOLDINGS 3 LLC',
  'GULFSTREAM TLC 2019 LLC',
  'CORAL REEF TAX CERT FUND LLC',
  'FL TAX LIEN FUND 14 LLC',
  'MAGNOLIA LIEN INVESTORS 7 LLC',
  'TLF EVERGLADES 5 LLC',
  'ATLANTIC BAYOU CAPITAL II LLC',
  'BLUE HERON TAX FUND LLC',
  'PELICAN POINT TAX LIENS 21 LLC',
  'OSPREY LIEN HOLDINGS LLC',
  'TIDEWATER LIEN FUND IV LP',
  'SABAL PALM FUNDING 9 LLC',
  'CAPSTONE FLTC 2021-A LLC',
  'KEYLIME TAX CERTIFICATES LLC',
  'CYPRESS HAMMOCK INVESTMENTS LLC',
  'SEAGRAPE CAPITAL PARTNERS LLC',
  'ORANGE GROVE LIEN CO LLC',
  'MANATEE BAY CERT TRUST',
] as const;

/** Banks holding certificates as custodian for a fund or a self-directed account. */
export const CUSTODIAN_HOLDERS = [
  'FIRST PELICAN BANK AS CUSTODIAN FOR SEAGRAPE LIEN TRUST',
  'HARBORVIEW NATIONAL BANK CUST FOR TLF 2020 LLC',
  'SOUTHERN PINE TRUST CO CUST FBO MAGNOLIA FUND I',
  'INTRACOASTAL BANK NA AS CUST FOR OSPREY CERT 4 LLC',
  'BISCAYNE SAVINGS BANK CUST FOR CORAL LIENS LP',
  'TAMIAMI TRUST BANK AS CUSTODIAN FOR GULF LIENS 7 LLC',
] as const;

/** Self-directed retirement account custodians (invented) for individual bidders. */
export const IRA_CUSTODIANS = ['SUNCOAST IRA SERVICES', 'PANHANDLE SELF DIRECTED TRUST CO', 'BAYFRONT RETIREMENT TRUST'] as const;

export const STREET_NAMES = [
  'OCEAN', 'BAYSHORE', 'PALMETTO', 'MAGNOLIA', 'CYPRESS', 'HIBISCUS', 'ORANGE', 'LAKE', 'PINE', 'OAK',
  'CORAL', 'SUNSET', 'ROYAL PALM', 'SEMINOLE', 'CITRUS', 'FLAMINGO', 'MANGO', 'GULF', 'HARBOR', 'POINCIANA',
  'JACARANDA', 'BANYAN', 'MIMOSA', 'COCONUT', 'EGRET', 'HERON', 'SAND PINE', 'LIVE OAK', 'INDIAN', 'RIVERSIDE',
  'MAIN', 'CHURCH', 'LINCOLN', 'WASHINGTON', 'JEFFERSON', 'MLK JR', 'PARK', 'COLLEGE', 'WOODLAND', 'MEADOW',
] as const;
export const STREET_TYPES = ['ST', 'AVE', 'DR', 'RD', 'BLVD', 'CT', 'LN', 'WAY', 'CIR', 'TER', 'PL', 'TRL'] as const;
export const GRID_TYPES = ['ST', 'AVE', 'CT', 'TER', 'PL', 'RD', 'DR', 'LN'] as const;
export const QUADRANTS = ['NW', 'NE', 'SW', 'SE'] as const;

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
