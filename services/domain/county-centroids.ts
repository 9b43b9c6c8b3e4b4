import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';

/**
 * Each county's interior point (US Census gazetteer centroids, data/florida-county-centroids.csv)
 * and how far from it a parcel of the county may plausibly lie. A parcel centroid farther away is
 * a coordinate error (swapped lat/lon, another county's parcel, a dropped minus sign), quarantined
 * rather than put on the map in the wrong place.
 */

/** Florida's extent with a margin: lat 24.3..31.1, lon -87.7..-79.8 (the Dry Tortugas to Pensacola, Fernandina to the Keys). */
export const FLORIDA_EXTENT = { minLat: 24.3, maxLat: 31.1, minLon: -87.7, maxLon: -79.8 } as const;

/**
 * The plausible radius around a county's interior point, in km. 120 km covers the largest
 * counties with room (the farthest corners of Collier, Palm Beach and Miami-Dade lie 55-65 km
 * from their centroids); it catches a swapped or mistyped coordinate, not a neighbour's parcel. Monroe's
 * centroid lies on the mainland and its keys run to Key West (130 km) and the Dry Tortugas (200 km).
 */
export const DEFAULT_PARCEL_RADIUS_KM = 120;
export const PARCEL_RADIUS_KM: Readonly<Record<string, number>> = { monroe: 210 };

export function parcelRadiusKm(countySlug: string): number {
  return PARCEL_RADIUS_KM[countySlug] ?? DEFAULT_PARCEL_RADIUS_KM;
}

export interface CountyCentroid {
  lat: number;
  lon: number;
}

const CentroidRow = z.object({
  county_slug: z.string().regex(/^[a-z][a-z-]+$/),
  county_fips: z.string().regex(/^\d{5}$/),
  centroid_lat: z.coerce.number().min(FLORIDA_EXTENT.minLat).max(FLORIDA_EXTENT.maxLat),
  centroid_lon: z.coerce.number().min(FLORIDA_EXTENT.minLon).max(FLORIDA_EXTENT.maxLon),
});

const centroidsCsv = new URL('data/florida-county-centroids.csv', import.meta.url);

/** The interior point of every county by slug; read once by the process that builds parcel records. */
export function loadCountyCentroids(): ReadonlyMap<string, CountyCentroid> {
  const rows = z.array(CentroidRow).parse(parse(readFileSync(centroidsCsv), { columns: true, skip_empty_lines: true }));
  return new Map(rows.map((r) => [r.county_slug, { lat: r.centroid_lat, lon: r.centroid_lon }]));
}

const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine on the mean Earth radius). */
export function distanceKm(a: CountyCentroid, b: CountyCentroid): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function inFlorida(p: CountyCentroid): boolean {
  const e = FLORIDA_EXTENT;
  return p.lat >= e.minLat && p.lat <= e.maxLat && p.lon >= e.minLon && p.lon <= e.maxLon;
}
