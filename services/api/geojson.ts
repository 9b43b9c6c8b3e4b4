import { z } from 'zod';
import {
  type GeoPoint,
  type ListResult,
  listEnvelope,
  MetaSchema,
  type ObjectResult,
  objectEnvelope,
  PaginationSchema,
  FacetsSchema,
} from './envelope.ts';

/**
 * GeoJSON answers (RFC 7946) of the certificate lists and by-id: a FeatureCollection whose
 * features are the rows, each a Point [lon, lat] at the parcel centroid (geometry null for a
 * row without one: RFC 7946 3.2 allows it, so every row of the page is a feature and the
 * collection has as many features as the JSON answer has rows). Properties are the row as the
 * JSON answer has it. The JSON envelope's pagination, facets and meta ride along as foreign
 * members of the collection (RFC 7946 6.1), so a map client pages exactly as a JSON one.
 */

export const GEOJSON_TYPE = 'application/geo+json';

function feature<T>(row: T, point: GeoPoint | null | undefined) {
  return {
    type: 'Feature' as const,
    geometry: point ? { type: 'Point' as const, coordinates: [point.lon, point.lat] } : null,
    properties: row,
  };
}

export function listFeatureCollection<T>(result: ListResult<T>, requestId: string) {
  const { data, ...rest } = listEnvelope(result, requestId);
  return { type: 'FeatureCollection' as const, features: data.map((row, i) => feature(row, result.points?.[i])), ...rest };
}

export function objectFeatureCollection<T>(result: ObjectResult<T>, requestId: string) {
  const { data, meta } = objectEnvelope(result, requestId);
  return { type: 'FeatureCollection' as const, features: [feature(data, result.point)], meta };
}

/** The OpenAPI shape of a FeatureCollection of rows. */
export function featureCollectionSchema<T extends z.ZodType>(row: T, list: boolean) {
  return z
    .object({
      type: z.literal('FeatureCollection'),
      features: z.array(
        z.object({
          type: z.literal('Feature'),
          geometry: z
            .object({ type: z.literal('Point'), coordinates: z.array(z.number()).length(2).describe('[lon, lat] (WGS84).') })
            .nullable()
            .describe('The parcel centroid, or null for a certificate without a location.'),
          properties: row,
        }),
      ),
      ...(list ? { pagination: PaginationSchema, facets: FacetsSchema.optional() } : {}),
      meta: MetaSchema,
    })
    .describe("format=geojson: the rows as GeoJSON Point features, with the JSON answer's pagination, facets and meta.");
}
