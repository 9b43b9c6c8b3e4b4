import type { GeoGridCell, GeoGridObject } from './geo-grid-row.ts';

/**
 * The geotile_grid answer -> the geo-grid object. Pure. Bounds come from the tile key by the
 * web map tile formulas (the engine's own), so a client draws exactly the cell the engine counted.
 */

export interface GeoGridAggregation {
  located?: {
    doc_count: number;
    cells?: { buckets: { key: string; doc_count: number; face_amount_sum?: { value: number | null } }[] };
  };
}

export function tileLongitude(x: number, zoom: number): number {
  return (x / 2 ** zoom) * 360 - 180;
}

export function tileLatitude(y: number, zoom: number): number {
  const n = Math.PI * (1 - (2 * y) / 2 ** zoom);
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

export function tileBounds(key: string): GeoGridCell['bounds'] {
  const [z, x, y] = key.split('/').map(Number) as [number, number, number];
  return {
    top_left: { lat: tileLatitude(y, z), lon: tileLongitude(x, z) },
    bottom_right: { lat: tileLatitude(y + 1, z), lon: tileLongitude(x + 1, z) },
  };
}

/** Whole cents: a sum of doubles may carry a stray fraction of a cent. */
function cents(value: number | null | undefined): number {
  return Math.round((value ?? 0) * 100) / 100;
}

export function mapGeoGrid(zoom: number, aggs: GeoGridAggregation | undefined): GeoGridObject {
  const buckets = aggs?.located?.cells?.buckets ?? [];
  const cells = buckets
    .map((b) => ({ key: b.key, bounds: tileBounds(b.key), count: b.doc_count, face_amount_sum: cents(b.face_amount_sum?.value) }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { zoom, located: aggs?.located?.doc_count ?? 0, cells };
}
