import { type LatLon, mustRead, readBbox, readLatLon, readPolygon, readRadius } from '../../params/geo.ts';
import { anyOf, type Clause, inclusiveRange } from '../../query/filters.ts';
import type { PlaceFilters } from './params.ts';

/**
 * The place filters (params.ts placeFilters) as named Query DSL fragments, shared by
 * certificate search, counts and the market analytics' scope. Pure. Each geo filter is on the
 * `location` geo_point, which only a certificate with a parcel row has: a document without it
 * never matches any of them (the engine's geo queries skip a missing field).
 */
export function placeFilters(p: PlaceFilters): [string, Clause | undefined][] {
  return [
    ['bbox', p.bbox === undefined ? undefined : boundingBox(p.bbox)],
    ['near', p.near === undefined || p.radius === undefined ? undefined : withinRadius(p.near, p.radius)],
    ['polygon', p.polygon === undefined ? undefined : withinPolygon(p.polygon)],
    ['homestead', p.homestead === undefined ? undefined : anyOf('homestead', [p.homestead])],
    ['just_value', inclusiveRange('just_value', p.just_value_min, p.just_value_max)],
    ['use_code', p.use_code && anyOf('use_code', p.use_code)],
    ['zip', p.zip && anyOf('situs_zip', p.zip)],
    // The schema upper-cases the names and collapses spaces, as the ingest stores situs_city.
    ['city', p.city && anyOf('situs_city', p.city)],
    ['owner_type', p.owner_type === undefined ? undefined : anyOf('owner_type', [p.owner_type])],
  ];
}

export function boundingBox(text: string): Clause {
  const b = mustRead(readBbox, text);
  return {
    geo_bounding_box: { location: { top_left: { lat: b.maxLat, lon: b.minLon }, bottom_right: { lat: b.minLat, lon: b.maxLon } } },
  };
}

/** The radius in meters, written as the engine reads a distance. */
export function withinRadius(near: string, radius: string): Clause {
  const origin = mustRead(readLatLon, near);
  return { geo_distance: { distance: `${meters(radius)}m`, location: { lat: origin.lat, lon: origin.lon } } };
}

/** Meters, rounded to the millimetre so a radius in miles prints as a short exact text. */
export function meters(radius: string): number {
  return Math.round(mustRead(readRadius, radius) * 1000) / 1000;
}

/**
 * geo_shape, not geo_polygon: the engine accepts both on a geo_point field, and geo_polygon is
 * the deprecated one. The ring is GeoJSON: [lon, lat] pairs, closed, counter-clockwise (the
 * right-hand rule), so its orientation never makes the engine read the outside as the inside.
 */
export function withinPolygon(text: string): Clause {
  const ring = counterClockwise(mustRead(readPolygon, text));
  const coordinates = [...ring, ring[0]!].map((p) => [p.lon, p.lat]);
  return { geo_shape: { location: { shape: { type: 'polygon', coordinates: [coordinates] }, relation: 'intersects' } } };
}

function counterClockwise(points: LatLon[]): LatLon[] {
  let twiceArea = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    twiceArea += a.lon * b.lat - b.lon * a.lat;
  }
  return twiceArea < 0 ? [...points].reverse() : points;
}
