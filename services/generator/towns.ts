import { readFileSync } from 'node:fs';

/**
 * Where a demo county's parcels lie: the county's interior point (the Census
 * gazetteer centroid in services/domain/data/florida-county-centroids.csv) and the
 * centre of each town its city table names (counties.ts), with how far the town
 * spreads. Real parcels crowd into towns, so points are drawn around these centres
 * (parcel-place.ts) rather than over the county's box. Centres are the towns' own
 * coordinates (city hall or downtown, to about a kilometre).
 */

export interface LatLon {
  lat: number;
  lon: number;
}

export interface Town extends LatLon {
  /** Kilometres within which most of the town's parcels lie (its built-up radius, roughly). */
  spreadKm: number;
}

const centroidsCsv = new URL('../domain/data/florida-county-centroids.csv', import.meta.url);

/** Interior points by county slug, read once from the shared CSV (county_slug,county_fips,centroid_lat,centroid_lon). */
export function loadInteriorPoints(text = readFileSync(centroidsCsv, 'utf8')): ReadonlyMap<string, LatLon> {
  const points = new Map<string, LatLon>();
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const cols = header!.split(',');
  const at = (name: string) => {
    const i = cols.indexOf(name);
    if (i < 0) throw new RangeError(`florida-county-centroids.csv has no ${name} column`);
    return i;
  };
  const slug = at('county_slug');
  const lat = at('centroid_lat');
  const lon = at('centroid_lon');
  for (const line of lines) {
    const cells = line.split(',');
    points.set(cells[slug]!, { lat: Number(cells[lat]), lon: Number(cells[lon]) });
  }
  return points;
}

/** Town centres by county slug and city name (the names of counties.ts, upper case). */
export const TOWNS: Readonly<Record<string, Readonly<Record<string, Town>>>> = {
  'miami-dade': {
    MIAMI: { lat: 25.7743, lon: -80.1937, spreadKm: 7 },
    HIALEAH: { lat: 25.8576, lon: -80.2781, spreadKm: 4 },
    HOMESTEAD: { lat: 25.4687, lon: -80.4776, spreadKm: 4 },
    'MIAMI GARDENS': { lat: 25.942, lon: -80.2456, spreadKm: 4 },
    'NORTH MIAMI': { lat: 25.8901, lon: -80.1867, spreadKm: 2.5 },
    'MIAMI BEACH': { lat: 25.8107, lon: -80.13, spreadKm: 2.5 },
    'CORAL GABLES': { lat: 25.7215, lon: -80.2684, spreadKm: 3 },
    DORAL: { lat: 25.8195, lon: -80.3553, spreadKm: 3 },
    'OPA-LOCKA': { lat: 25.9023, lon: -80.2503, spreadKm: 2 },
    'FLORIDA CITY': { lat: 25.4479, lon: -80.4792, spreadKm: 2 },
    'CUTLER BAY': { lat: 25.5808, lon: -80.3468, spreadKm: 3 },
  },
  broward: {
    'FORT LAUDERDALE': { lat: 26.1224, lon: -80.1373, spreadKm: 5 },
    HOLLYWOOD: { lat: 26.0112, lon: -80.1495, spreadKm: 4 },
    'POMPANO BEACH': { lat: 26.2379, lon: -80.1248, spreadKm: 3.5 },
    LAUDERHILL: { lat: 26.1404, lon: -80.2134, spreadKm: 2.5 },
    MIRAMAR: { lat: 25.9861, lon: -80.3036, spreadKm: 4 },
    'PEMBROKE PINES': { lat: 26.0078, lon: -80.2963, spreadKm: 4 },
    'CORAL SPRINGS': { lat: 26.2712, lon: -80.2706, spreadKm: 3.5 },
    'DEERFIELD BEACH': { lat: 26.3184, lon: -80.0998, spreadKm: 2.5 },
    SUNRISE: { lat: 26.167, lon: -80.256, spreadKm: 3 },
    DAVIE: { lat: 26.0629, lon: -80.2331, spreadKm: 4 },
    MARGATE: { lat: 26.2445, lon: -80.2064, spreadKm: 2 },
    'DANIA BEACH': { lat: 26.0523, lon: -80.1439, spreadKm: 2 },
  },
  hillsborough: {
    TAMPA: { lat: 27.9506, lon: -82.4572, spreadKm: 7 },
    BRANDON: { lat: 27.9378, lon: -82.2859, spreadKm: 4 },
    'PLANT CITY': { lat: 28.0186, lon: -82.1129, spreadKm: 4 },
    'TEMPLE TERRACE': { lat: 28.0353, lon: -82.3893, spreadKm: 2.5 },
    RIVERVIEW: { lat: 27.8661, lon: -82.3265, spreadKm: 4 },
    RUSKIN: { lat: 27.7209, lon: -82.4332, spreadKm: 3.5 },
    SEFFNER: { lat: 27.9839, lon: -82.2757, spreadKm: 3 },
    LUTZ: { lat: 28.1511, lon: -82.4615, spreadKm: 4 },
    VALRICO: { lat: 27.9378, lon: -82.2365, spreadKm: 3 },
  },
  orange: {
    ORLANDO: { lat: 28.5383, lon: -81.3792, spreadKm: 8 },
    APOPKA: { lat: 28.6934, lon: -81.5322, spreadKm: 4 },
    'WINTER PARK': { lat: 28.6, lon: -81.3392, spreadKm: 2.5 },
    'WINTER GARDEN': { lat: 28.5653, lon: -81.5862, spreadKm: 3.5 },
    OCOEE: { lat: 28.5692, lon: -81.544, spreadKm: 3 },
    MAITLAND: { lat: 28.6278, lon: -81.3631, spreadKm: 2 },
    WINDERMERE: { lat: 28.4956, lon: -81.5348, spreadKm: 3 },
    ZELLWOOD: { lat: 28.7311, lon: -81.6012, spreadKm: 2.5 },
    CHRISTMAS: { lat: 28.5361, lon: -81.0173, spreadKm: 4 },
  },
  pinellas: {
    'ST PETERSBURG': { lat: 27.7676, lon: -82.6403, spreadKm: 5 },
    CLEARWATER: { lat: 27.9659, lon: -82.7801, spreadKm: 4 },
    LARGO: { lat: 27.9095, lon: -82.7873, spreadKm: 3 },
    'PINELLAS PARK': { lat: 27.8428, lon: -82.6995, spreadKm: 2.5 },
    DUNEDIN: { lat: 28.02, lon: -82.7718, spreadKm: 2 },
    'TARPON SPRINGS': { lat: 28.1461, lon: -82.7568, spreadKm: 3 },
    SEMINOLE: { lat: 27.8398, lon: -82.7912, spreadKm: 2.5 },
    GULFPORT: { lat: 27.7484, lon: -82.7034, spreadKm: 1.5 },
    'SAFETY HARBOR': { lat: 27.9908, lon: -82.6934, spreadKm: 2 },
  },
  duval: {
    JACKSONVILLE: { lat: 30.3322, lon: -81.6557, spreadKm: 12 },
    'JACKSONVILLE BEACH': { lat: 30.2947, lon: -81.3931, spreadKm: 2.5 },
    'ATLANTIC BEACH': { lat: 30.3344, lon: -81.4087, spreadKm: 2 },
    'NEPTUNE BEACH': { lat: 30.3119, lon: -81.4015, spreadKm: 1.5 },
    BALDWIN: { lat: 30.3027, lon: -81.9751, spreadKm: 2.5 },
  },
  franklin: {
    APALACHICOLA: { lat: 29.7255, lon: -84.9833, spreadKm: 2.5 },
    EASTPOINT: { lat: 29.7366, lon: -84.8785, spreadKm: 3 },
    CARRABELLE: { lat: 29.8533, lon: -84.6641, spreadKm: 3 },
    'ALLIGATOR POINT': { lat: 29.8963, lon: -84.4077, spreadKm: 2 },
  },
  gulf: {
    'PORT ST JOE': { lat: 29.8119, lon: -85.303, spreadKm: 4 },
    WEWAHITCHKA: { lat: 30.1127, lon: -85.2005, spreadKm: 4 },
  },
};

export function townOf(slug: string, city: string): Town {
  const town = TOWNS[slug]?.[city];
  if (!town) throw new RangeError(`no town centre for ${city} in ${slug}`);
  return town;
}
