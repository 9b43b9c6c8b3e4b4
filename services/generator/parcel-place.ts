import { distanceKm, inFlorida } from '../domain/county-centroids.ts';
import type { Prng } from './prng.ts';
import type { LatLon, Town } from './towns.ts';

/**
 * A parcel's centroid: drawn around its town's centre, most of them close in (a
 * town's core is denser than its edge) and a tail out to the suburbs, never outside
 * Florida's extent nor farther than MAX_PARCEL_KM from the county's interior point.
 * The extent and the interior point are the ones the parcel ingest quarantines by,
 * with a smaller radius here, so every generated row loads. Coastal towns put a
 * few points in the water (a bay, the Gulf): the check is a distance, not a shoreline.
 */

/** No generated parcel lies farther than this from its county's interior point (the ingest allows more). */
export const MAX_PARCEL_KM = 60;
/** Share of a town's parcels in its core (a third of its spread); the rest spread over the whole radius and beyond. */
const CORE_SHARE = 0.6;
const CORE_SCALE = 0.35;
const TRIES = 8;
const KM_PER_DEGREE_LAT = (Math.PI * 6371.0088) / 180;
const rad = (d: number) => (d * Math.PI) / 180;

/** Five decimals (about a metre): a centroid is no more exact, and fewer digits keep the demo files small. */
const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

export function placeParcel(town: Town, interior: LatLon, rng: Prng): LatLon {
  for (let t = 0; t < TRIES; t++) {
    const sigma = town.spreadKm * (rng.chance(CORE_SHARE) ? CORE_SCALE : 1);
    const north = rng.normal() * sigma;
    const east = rng.normal() * sigma;
    const p = {
      lat: round5(town.lat + north / KM_PER_DEGREE_LAT),
      lon: round5(town.lon + east / (KM_PER_DEGREE_LAT * Math.cos(rad(town.lat)))),
    };
    if (inFlorida(p) && distanceKm(p, interior) <= MAX_PARCEL_KM) return p;
  }
  // A town centre itself always qualifies (towns.test.ts holds every centre to it).
  return { lat: town.lat, lon: town.lon };
}
