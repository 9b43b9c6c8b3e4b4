import { z } from 'zod';
import { NUMBER_TEXT } from './coerce.ts';

/**
 * Map parameters (bbox, near, radius, polygon) as text the caller writes, read by
 * pure functions the schemas and the builders share: a schema refuses what a reader
 * cannot read, naming the parameter, and a builder reads the same text again (a
 * schema keeps the text as given, so the published input stays a plain string).
 */

export interface LatLon {
  lat: number;
  lon: number;
}

export interface Bbox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** A reading: the value, or what is wrong with the text. */
export type Reading<T> = { value: T; problem?: undefined } | { problem: string };

/** The radius a `near` search may reach: farther is a county-wide question, which `county` answers. */
export const MAX_RADIUS_METERS = 100_000;
export const POLYGON_MIN_POINTS = 3;
export const POLYGON_MAX_POINTS = 200;

const LAT = 'latitude must be a number from -90 to 90';
const LON = 'longitude must be a number from -180 to 180';

function number(text: string): number | undefined {
  const t = text.trim();
  return NUMBER_TEXT.test(t) ? Number(t) : undefined;
}

function latLonProblem(lat: number, lon: number): string | undefined {
  if (lat < -90 || lat > 90) return `${LAT} (given ${lat})`;
  if (lon < -180 || lon > 180) return `${LON} (given ${lon})`;
  return undefined;
}

/** "lat,lon" in decimal degrees (WGS84). */
export function readLatLon(text: string): Reading<LatLon> {
  const parts = text.split(',');
  const [lat, lon] = parts.map(number);
  if (parts.length !== 2 || lat === undefined || lon === undefined)
    return { problem: 'must be lat,lon in decimal degrees, such as 26.1224,-80.1373' };
  const problem = latLonProblem(lat, lon);
  return problem ? { problem } : { value: { lat, lon } };
}

/** "minLon,minLat,maxLon,maxLat" (the GeoJSON bbox order); a box across the antimeridian is not asked for in Florida. */
export function readBbox(text: string): Reading<Bbox> {
  const parts = text.split(',');
  const n = parts.map(number);
  if (parts.length !== 4 || n.some((x) => x === undefined))
    return { problem: 'must be minLon,minLat,maxLon,maxLat: four numbers in decimal degrees, such as -80.3,25.7,-80.1,25.9' };
  const [minLon, minLat, maxLon, maxLat] = n as [number, number, number, number];
  const problem = latLonProblem(minLat, minLon) ?? latLonProblem(maxLat, maxLon);
  if (problem) return { problem };
  if (minLon > maxLon) return { problem: `minLon (${minLon}) must not be greater than maxLon (${maxLon})` };
  if (minLat > maxLat) return { problem: `minLat (${minLat}) must not be greater than maxLat (${maxLat})` };
  return { value: { minLon, minLat, maxLon, maxLat } };
}

const UNIT_METERS = { m: 1, km: 1000, mi: 1609.344 } as const;

/** "500m", "2km", "3mi": a positive distance, at most 100 km. */
export function readRadius(text: string): Reading<number> {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/.exec(text.trim().toLowerCase());
  if (!m) return { problem: 'must be a distance with its unit, m, km or mi, such as 500m, 2km or 3mi' };
  const unit = m[2] as string;
  if (!Object.hasOwn(UNIT_METERS, unit)) return { problem: `has the unknown unit "${unit}"; use m, km or mi, such as 500m, 2km or 3mi` };
  const meters = Number(m[1]) * UNIT_METERS[unit as keyof typeof UNIT_METERS];
  if (meters <= 0) return { problem: 'must be greater than 0' };
  if (meters > MAX_RADIUS_METERS) return { problem: `must be at most 100km (62.13mi); given ${text.trim()}` };
  return { value: meters };
}

/**
 * "lat,lon;lat,lon;..." with 3 to 200 points, closed (last point = first) or not. The ring is
 * closed for the engine; no self-intersection check (a bow tie selects what the engine's
 * polygon rule selects).
 */
export function readPolygon(text: string): Reading<LatLon[]> {
  const parts = text.split(';').filter((p, i, all) => p.trim() !== '' || i < all.length - 1);
  const points: LatLon[] = [];
  for (const [i, part] of parts.entries()) {
    const point = readLatLon(part);
    if (point.problem !== undefined) return { problem: `point ${i + 1} (${part.trim()}): ${point.problem}` };
    points.push(point.value);
  }
  const first = points[0];
  const last = points[points.length - 1];
  const closed = points.length > 1 && first !== undefined && last !== undefined && first.lat === last.lat && first.lon === last.lon;
  const open = closed ? points.slice(0, -1) : points;
  if (open.length < POLYGON_MIN_POINTS || open.length > POLYGON_MAX_POINTS)
    return {
      problem: `must have ${POLYGON_MIN_POINTS} to ${POLYGON_MAX_POINTS} points lat,lon separated by ";" (given ${open.length})`,
    };
  return { value: open };
}

/** A text parameter that must read with `reader`; its problem is the 400's message. */
export function readable<T>(reader: (text: string) => Reading<T>, max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .superRefine((text, ctx) => {
      const read = reader(text);
      if (read.problem !== undefined) ctx.addIssue({ code: 'custom', message: read.problem });
    });
}

/** Reads a value the schema already accepted (a builder's reading: a failure here is our bug). */
export function mustRead<T>(reader: (text: string) => Reading<T>, text: string): T {
  const read = reader(text);
  if (read.problem !== undefined) throw new Error(`unreadable map parameter ${JSON.stringify(text)}: ${read.problem}`);
  return read.value;
}
