import type { CertificateRecord } from '../../../../../../../services/domain/records.ts';

/**
 * The geo filters computed a second way over the raw rows, from the definitions and nothing of
 * the service's code: great-circle distance by the haversine formula on the sphere the engine
 * uses (mean radius 6,371,008.7714 m), point in polygon by ray casting, and a box by comparison.
 * Each answers in, out, or too close to call: the engine stores a point to about 5 mm and
 * measures with its own sloppy trigonometry, so a point within 1 m of a circle or 1e-6 degrees
 * of an edge is left out of the comparison on both sides.
 */

export interface Located {
  lat: number;
  lon: number;
}

export type Verdict = 'in' | 'out' | 'close';

export const EARTH_RADIUS_M = 6_371_008.7714;

const rad = (deg: number) => (deg * Math.PI) / 180;

export function haversineMeters(a: Located, b: Located): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function withinRadius(p: Located, center: Located, meters: number): Verdict {
  const d = haversineMeters(p, center);
  if (Math.abs(d - meters) <= 1) return 'close';
  return d < meters ? 'in' : 'out';
}

const EDGE = 1e-6;

export function withinBox(p: Located, box: { minLon: number; minLat: number; maxLon: number; maxLat: number }): Verdict {
  const near = (a: number, b: number) => Math.abs(a - b) <= EDGE;
  if ([box.minLon, box.maxLon].some((x) => near(p.lon, x)) || [box.minLat, box.maxLat].some((y) => near(p.lat, y))) return 'close';
  return p.lon >= box.minLon && p.lon <= box.maxLon && p.lat >= box.minLat && p.lat <= box.maxLat ? 'in' : 'out';
}

/** Distance in degrees (lon, lat as plane coordinates) from p to the segment a-b. */
function segmentDistance(p: Located, a: Located, b: Located): number {
  const dx = b.lon - a.lon;
  const dy = b.lat - a.lat;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.lon - a.lon) * dx + (p.lat - a.lat) * dy) / len));
  return Math.hypot(p.lon - (a.lon + t * dx), p.lat - (a.lat + t * dy));
}

/** Ray casting toward +lon: inside when the ray crosses the ring an odd number of times. */
export function withinPolygon(p: Located, ring: readonly Located[]): Verdict {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (segmentDistance(p, a, b) <= EDGE) return 'close';
    if (a.lat > p.lat !== b.lat > p.lat && p.lon < ((b.lon - a.lon) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lon) inside = !inside;
  }
  return inside ? 'in' : 'out';
}

/** The ids a filter must return, and those too close to call. */
export function expectedIds(
  rows: readonly (CertificateRecord & { location?: Located })[],
  verdict: (p: Located) => Verdict,
  keep: (r: CertificateRecord) => boolean = () => true,
): { in: Set<string>; close: Set<string> } {
  const result = { in: new Set<string>(), close: new Set<string>() };
  for (const r of rows) {
    if (!r.location || !keep(r)) continue;
    const v = verdict(r.location);
    if (v !== 'out') result[v].add(r.id);
  }
  return result;
}
